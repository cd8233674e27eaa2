package org.lockstep.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import java.util.stream.Stream;

/**
 * The architecture of Lockstep's main code, in one place (JabRef's {@code CommonArchitectureTest} idea).
 *
 * <p>The layers: the domain is plain Java (no JavaFX, no JDBC, no Jdbi); the store speaks SQL and knows no screens;
 * the ui and the shell reach the database only through the domain's interfaces; the contention lab's engine is plain
 * Java too; only {@code org.lockstep.app} wires the others together, and nothing outside it depends on it. View
 * models decide and views draw: a view model uses no {@code javafx.scene}, so it can be tested without a scene.
 *
 * <p>The cycles: no package takes part in a cycle — every package is a slice of its own, the root packages of
 * {@code ui} and {@code app} included, so {@code ui} ⇄ {@code ui.demo} fails as {@code ui} ⇄ {@code store} would.
 */
@AnalyzeClasses(packages = "org.lockstep", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    private static final String[] JDBC_AND_JDBI = {
            "java.sql..", "javax.sql..", "org.jdbi..", "com.zaxxer..", "org.postgresql..", "org.flywaydb.."
    };

    @ArchTest
    static final ArchRule domainIsPlainJava = noClasses().that().resideInAPackage("org.lockstep.domain..")
            .should().dependOnClassesThat().resideInAnyPackage(with(JDBC_AND_JDBI, "javafx..",
                    "org.lockstep.store..", "org.lockstep.lab..", "org.lockstep.ui..", "org.lockstep.shell..",
                    "org.lockstep.app..", "org.lockstep.editing..", "org.lockstep.concurrency..",
                    "org.lockstep.report.."));

    /** The editing layer, the executors and the report's model serve every front end: no screens, no SQL. */
    @ArchTest
    static final ArchRule editingLayerIsPlainJava = noClasses().that()
            .resideInAnyPackage("org.lockstep.editing..", "org.lockstep.concurrency..", "org.lockstep.report..")
            .should().dependOnClassesThat().resideInAnyPackage(with(JDBC_AND_JDBI, "javafx..",
                    "org.lockstep.store..", "org.lockstep.ui..", "org.lockstep.shell..", "org.lockstep.app.."));

    @ArchTest
    static final ArchRule storeKnowsNoScreens = noClasses().that().resideInAPackage("org.lockstep.store..")
            .should().dependOnClassesThat().resideInAnyPackage("javafx..", "org.lockstep.ui..", "org.lockstep.shell..",
                    "org.lockstep.app..", "org.lockstep.editing..", "org.lockstep.concurrency..");

    @ArchTest
    static final ArchRule uiReachesTheDatabaseOnlyThroughTheDomain = noClasses().that()
            .resideInAnyPackage("org.lockstep.ui..", "org.lockstep.shell..")
            .should().dependOnClassesThat().resideInAnyPackage(with(JDBC_AND_JDBI, "org.lockstep.store..",
                    "org.lockstep.app.."));

    @ArchTest
    static final ArchRule labEngineIsPlainJava = noClasses().that().resideInAPackage("org.lockstep.lab..")
            .should().dependOnClassesThat().resideInAnyPackage(with(JDBC_AND_JDBI, "javafx..",
                    "org.lockstep.store..", "org.lockstep.ui..", "org.lockstep.shell..", "org.lockstep.app.."));

    @ArchTest
    static final ArchRule onlyTheApplicationWires = noClasses().that().resideOutsideOfPackage("org.lockstep.app..")
            .should().dependOnClassesThat().resideInAPackage("org.lockstep.app..");

    @ArchTest
    static final ArchRule viewModelsUseNoSceneGraph = noClasses().that().haveNameMatching(".*ViewModel(\\$.*)?")
            // The parts the editor's view model is composed of are view-model code too.
            .or().haveSimpleName("ConflictFlow").or().haveSimpleName("EditorSaves").or().haveSimpleName("SaveQueue")
            .or().haveSimpleName("LiveFollower").or().haveSimpleName("RecordHelpers").or().haveSimpleName("EditBuffer")
            .or().haveSimpleName("EditorStatus").or().haveSimpleName("HotRecordWatch")
            .or().haveSimpleName("HolderMessaging").or().haveSimpleName("PresenceBoard")
            .should().dependOnClassesThat().resideInAPackage("javafx.scene..")
            .because("a view model exposes plain data and properties; its view builds the nodes");

    /**
     * The look (issue 16) is switched in one place: only {@code ui.theme} sets the user-agent stylesheet, that package
     * leans on no other Lockstep package (every view may use it without a cycle), and no view model reaches it.
     */
    @ArchTest
    static final ArchRule onlyTheThemePackageSwitchesTheLook = noClasses().that()
            .resideOutsideOfPackage("org.lockstep.ui.theme")
            .should().callMethod(javafx.application.Application.class, "setUserAgentStylesheet", String.class)
            .because("Themes applies the theme and the palette to every window at once");

    @ArchTest
    static final ArchRule themePackageIsALeaf = classes().that().resideInAPackage("org.lockstep.ui.theme")
            .should().onlyDependOnClassesThat().resideInAnyPackage("org.lockstep.ui.theme", "org.lockstep.text",
                    "java..",
                    "javafx..", "org.kordamp.ikonli..");

    /**
     * The languages (issue 16) are a leaf every layer may use — the domain's validation messages speak the operator's
     * language as the views do — so {@code org.lockstep.text} leans on nothing of Lockstep's.
     */
    @ArchTest
    static final ArchRule textPackageIsALeaf = classes().that().resideInAPackage("org.lockstep.text")
            .should().onlyDependOnClassesThat().resideInAnyPackage("org.lockstep.text", "java..", "com.ibm.icu..",
                    "org.slf4j..");

    @ArchTest
    static final ArchRule viewModelsKnowNoTheme = noClasses().that().haveNameMatching(".*ViewModel(\\$.*)?")
            .should().dependOnClassesThat().resideInAPackage("org.lockstep.ui.theme")
            .because("the look is the views' business");

    @ArchTest
    static final ArchRule topLevelPackagesAreFreeOfCycles = slices().matching("org.lockstep.(*)..")
            .should().beFreeOfCycles();

    /** Every package a slice: {@code org.lockstep.(**)} makes {@code ui} and {@code ui.demo} two slices. */
    @ArchTest
    static final ArchRule packagesAreFreeOfCycles = slices().matching("org.lockstep.(**)")
            .should().beFreeOfCycles();

    private static String[] with(String[] packages, String... more) {
        return Stream.concat(Stream.of(packages), Stream.of(more)).toArray(String[]::new);
    }
}
