package org.lockstep.ui;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * View models decide, views draw: no class named {@code *ViewModel} uses {@code javafx.scene} (controls, charts,
 * nodes), so that every view model can be tested without a scene and the view builds its nodes from plain data
 * (the lab's charts: {@link org.lockstep.ui.lab.ChartSeries}). To be folded into the single architecture test.
 */
class UiArchitectureTest {

    static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("org.lockstep");

    @Test
    void viewModelsUseNoSceneGraph() {
        noClasses().that().haveSimpleNameEndingWith("ViewModel")
                .should().dependOnClassesThat().resideInAPackage("javafx.scene..")
                .because("a view model exposes plain data and properties; its view builds the nodes")
                .check(CLASSES);
    }
}
