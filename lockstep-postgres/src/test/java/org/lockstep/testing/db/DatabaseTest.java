package org.lockstep.testing.db;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A test class that runs on a real PostgreSQL ({@link TestDatabases}: the embedded server, a Testcontainers one or
 * {@code LOCKSTEP_TEST_DB_URL}). It is tagged {@value #TAG}, so that {@code -Dgroups='!db'} leaves it out (README,
 * "Test it"), and its {@link FreshDatabase} fields and {@code Database} parameters get fresh migrated databases
 * ({@link DatabaseExtension}). Every test class that makes a database, starts a server or connects to one carries it.
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@Tag(DatabaseTest.TAG)
@ExtendWith(DatabaseExtension.class)
public @interface DatabaseTest {

    /** The tag of database tests, for surefire's {@code groups} and {@code excludedGroups}. */
    String TAG = "db";
}
