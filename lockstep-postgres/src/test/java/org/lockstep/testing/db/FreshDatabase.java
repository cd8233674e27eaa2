package org.lockstep.testing.db;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A {@code Database} field that {@link DatabaseExtension} fills with a fresh, migrated database of its own and closes
 * when it is done: a static field once for the test class (before its {@code @BeforeAll} methods, closed after its
 * {@code @AfterAll} methods), an instance field for each test (before its {@code @BeforeEach} methods, closed after
 * its {@code @AfterEach} methods). The class carries {@link DatabaseTest}.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.FIELD)
public @interface FreshDatabase {
}
