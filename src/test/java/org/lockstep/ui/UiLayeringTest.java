package org.lockstep.ui;

import org.lockstep.concurrency.TaskExecutor;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The UI talks to a CustomerRepository and a TaskExecutor only: no SQL, no Jdbi, no wiring from app. */
class UiLayeringTest {

    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("org.lockstep");

    @Test
    void uiReachesTheDatabaseOnlyThroughTheDomainsRepository() {
        noClasses().that().resideInAPackage("org.lockstep.ui..")
                .should().dependOnClassesThat()
                .resideInAnyPackage("java.sql..", "org.jdbi..", "org.lockstep.store..", "org.lockstep.app..")
                .check(MAIN);
    }
}
