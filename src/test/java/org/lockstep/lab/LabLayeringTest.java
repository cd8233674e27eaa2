package org.lockstep.lab;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The lab's engine is plain Java: the SQL is in the store, the wiring in app, the window in ui. */
class LabLayeringTest {

    @Test
    void theLabEngineKnowsNoSqlNoJdbiAndNoJavaFx() {
        noClasses().that().resideInAPackage("org.lockstep.lab..")
                .should().dependOnClassesThat().resideInAnyPackage("java.sql..", "javax.sql..", "org.jdbi..",
                        "com.zaxxer..", "org.postgresql..", "javafx..", "org.lockstep.store..", "org.lockstep.app..",
                        "org.lockstep.ui..")
                .check(new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                        .importPackages("org.lockstep.lab"));
    }
}
