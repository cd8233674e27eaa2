package org.lockstep.testing.db;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.lockstep.server.Database;

/**
 * Fresh, migrated databases for a test ({@link TestDatabases#fresh()}), each closed once the test or class that got
 * it is done. {@link DatabaseTest} registers it; it fills
 * <ul>
 * <li>every static {@link FreshDatabase} field of type {@link Database}, once per test class, before its
 * {@code @BeforeAll} methods; closed after its {@code @AfterAll} methods, so that what those close (executors, change
 * feeds, pools of other clients) closes first;</li>
 * <li>every instance {@link FreshDatabase} field, once per test, before its {@code @BeforeEach} methods; closed after
 * its {@code @AfterEach} methods;</li>
 * <li>every parameter of type {@link Database} of a test, lifecycle method or constructor, with a database of its own
 * (two parameters, two databases), closed when the method's test (or, for {@code @BeforeAll}, its class) is done.</li>
 * </ul>
 * Tests that share a class's database give their records unique keys.
 */
public final class DatabaseExtension implements BeforeAllCallback, BeforeEachCallback, ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(
            DatabaseExtension.class);

    @Override
    public void beforeAll(ExtensionContext context) throws IllegalAccessException {
        for (Field field : freshFields(context.getRequiredTestClass(), true)) {
            field.set(null, fresh(context));
        }
    }

    @Override
    public void beforeEach(ExtensionContext context) throws IllegalAccessException {
        for (Object instance : context.getRequiredTestInstances().getAllInstances()) {
            for (Field field : freshFields(instance.getClass(), false)) {
                field.set(instance, fresh(context));
            }
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == Database.class;
    }

    @Override
    public Database resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return fresh(context);
    }

    /** A new database, closed with {@code context}: JUnit closes what a context's store holds when it ends. */
    private static Database fresh(ExtensionContext context) {
        Database db = TestDatabases.fresh();
        context.getStore(NAMESPACE).put(db, db);
        return db;
    }

    private static List<Field> freshFields(Class<?> type, boolean statics) {
        List<Field> fields = new ArrayList<>();
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field field : c.getDeclaredFields()) {
                if (field.isAnnotationPresent(FreshDatabase.class)
                        && Modifier.isStatic(field.getModifiers()) == statics) {
                    if (field.getType() != Database.class || Modifier.isFinal(field.getModifiers())) {
                        throw new ExtensionConfigurationException("@FreshDatabase goes on a non-final field of type "
                                + "Database, not " + field);
                    }
                    field.setAccessible(true);
                    fields.add(field);
                }
            }
        }
        return fields;
    }
}
