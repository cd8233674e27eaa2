package org.lockstep.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The layers of Lockstep (JabRef's {@code CommonArchitectureTest} idea): the domain is plain Java; the UI talks to
 * the database only through domain interfaces; only the app package wires everything together.
 */
@AnalyzeClasses(packages = "org.lockstep", importOptions = ImportOption.DoNotIncludeTests.class)
class LayeringTest {

    @ArchTest
    static final ArchRule domainIsPlainJava = noClasses().that().resideInAPackage("org.lockstep.domain..")
            .should().dependOnClassesThat().resideInAnyPackage("javafx..", "java.sql..", "javax.sql..", "org.jdbi..",
                    "com.zaxxer..", "org.postgresql..", "org.lockstep.store..", "org.lockstep.ui..",
                    "org.lockstep.app..");

    @ArchTest
    static final ArchRule uiNeverTouchesJdbc = noClasses().that().resideInAPackage("org.lockstep.ui..")
            .should().dependOnClassesThat().resideInAnyPackage("java.sql..", "javax.sql..", "org.jdbi..",
                    "com.zaxxer..", "org.postgresql..", "org.flywaydb..", "org.lockstep.store..", "org.lockstep.app..");

    @ArchTest
    static final ArchRule storeKnowsNoUi = noClasses().that().resideInAPackage("org.lockstep.store..")
            .should().dependOnClassesThat().resideInAnyPackage("javafx..", "org.lockstep.ui..", "org.lockstep.app..");
}
