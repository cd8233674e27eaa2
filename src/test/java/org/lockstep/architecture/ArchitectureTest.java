package org.lockstep.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import java.util.stream.Stream;

/**
 * The architecture of Lockstep's main code, in one place (JabRef's {@code CommonArchitectureTest} idea).
 *
 * <p>The layers: the domain is plain Java (no JavaFX, no JDBC, no Jdbi); the store speaks SQL and knows no screens;
 * the ui reaches the database only through the domain's interfaces; the contention lab's engine is plain Java too;
 * only {@code org.lockstep.app} wires the others together, and nothing outside it depends on it.
 *
 * <p>The cycles: the top-level packages ({@code domain}, {@code store}, {@code lab}, {@code ui}, {@code app}) form
 * no cycle, and neither do the packages of the application ({@code org.lockstep.app} itself, {@code app.cli},
 * {@code app.bench}, {@code app.csv}, {@code app.generate}, {@code app.log}). The packages inside {@code ui} are not
 * checked for cycles among themselves here: that rule joins once the ui is rewritten onto the editing layer.
 */
@AnalyzeClasses(packages = "org.lockstep", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    private static final String[] JDBC_AND_JDBI = {
            "java.sql..", "javax.sql..", "org.jdbi..", "com.zaxxer..", "org.postgresql..", "org.flywaydb.."
    };

    @ArchTest
    static final ArchRule domainIsPlainJava = noClasses().that().resideInAPackage("org.lockstep.domain..")
            .should().dependOnClassesThat().resideInAnyPackage(with(JDBC_AND_JDBI, "javafx..",
                    "org.lockstep.store..", "org.lockstep.lab..", "org.lockstep.ui..", "org.lockstep.app.."));

    @ArchTest
    static final ArchRule storeKnowsNoScreens = noClasses().that().resideInAPackage("org.lockstep.store..")
            .should().dependOnClassesThat().resideInAnyPackage("javafx..", "org.lockstep.ui..", "org.lockstep.app..");

    @ArchTest
    static final ArchRule uiReachesTheDatabaseOnlyThroughTheDomain = noClasses().that()
            .resideInAPackage("org.lockstep.ui..")
            .should().dependOnClassesThat().resideInAnyPackage(with(JDBC_AND_JDBI, "org.lockstep.store..",
                    "org.lockstep.app.."));

    @ArchTest
    static final ArchRule labEngineIsPlainJava = noClasses().that().resideInAPackage("org.lockstep.lab..")
            .should().dependOnClassesThat().resideInAnyPackage(with(JDBC_AND_JDBI, "javafx..",
                    "org.lockstep.store..", "org.lockstep.ui..", "org.lockstep.app.."));

    @ArchTest
    static final ArchRule onlyTheApplicationWires = noClasses().that().resideOutsideOfPackage("org.lockstep.app..")
            .should().dependOnClassesThat().resideInAPackage("org.lockstep.app..");

    @ArchTest
    static final ArchRule topLevelPackagesAreFreeOfCycles = slices().matching("org.lockstep.(*)..")
            .should().beFreeOfCycles();

    @ArchTest
    static final ArchRule applicationPackagesAreFreeOfCycles = slices().assignedFrom(new ApplicationPackages())
            .should().beFreeOfCycles();

    /**
     * The packages of {@code org.lockstep.app}, its root package a slice of its own: the pattern
     * {@code org.lockstep.app.(*)..} alone would leave the root out, and with it any cycle through the root.
     */
    private static final class ApplicationPackages implements SliceAssignment {

        private static final String ROOT = "org.lockstep.app";

        @Override
        public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
            String pkg = javaClass.getPackageName();
            if (pkg.equals(ROOT)) {
                return SliceIdentifier.of("app");
            }
            if (!pkg.startsWith(ROOT + ".")) {
                return SliceIdentifier.ignore();
            }
            String sub = pkg.substring(ROOT.length() + 1);
            int dot = sub.indexOf('.');
            return SliceIdentifier.of("app." + (dot < 0 ? sub : sub.substring(0, dot)));
        }

        @Override
        public String getDescription() {
            return "org.lockstep.app and each of its subpackages";
        }
    }

    private static String[] with(String[] packages, String... more) {
        return Stream.concat(Stream.of(packages), Stream.of(more)).toArray(String[]::new);
    }
}
