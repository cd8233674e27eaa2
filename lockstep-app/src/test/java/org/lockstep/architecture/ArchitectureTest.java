package org.lockstep.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.core.importer.Location;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.lockstep.ui.editor.AllowedToUseEditorViewModel;
import org.lockstep.ui.editor.CustomerEditorViewModel;

/**
 * What the module graph cannot say about Lockstep's main code, in one place (JabRef's {@code CommonArchitectureTest}
 * idea). The modules say the rest, and their compilers enforce it: {@code lockstep-core} has no JavaFX, JDBC, Jdbi or
 * store on its class path and sees only {@code java.base} of the JDK; {@code lockstep-desktop} has no JDBC or store and
 * sees {@code java.base}, {@code java.desktop} and {@code java.prefs}; nothing depends on {@code lockstep-app}, the
 * wiring, nor on {@code lockstep-bench} (docs/architecture.md draws them).
 *
 * <p>Inside the core: the domain is the bottom (records, versions, outcomes, merge, lease rules), so it uses no other
 * Lockstep package but the texts; the texts and the executors lean on nothing of Lockstep's. Inside the store module,
 * the SQL ({@code store}) knows nothing of how the server is started and pooled ({@code server}). Inside the desktop:
 * view models decide and views draw — a view model uses no {@code javafx.scene}, so it can be tested without a scene —
 * and the look is switched in one place.
 *
 * <p>The cycles: no package takes part in a cycle — every package is a slice of its own, the root packages of
 * {@code ui} included, so {@code ui} ⇄ {@code ui.demo} fails as {@code ui} ⇄ {@code store} would. The import reads
 * every module's main classes (the benchmarks' too) and no test class, whether from a module's
 * {@code test-classes} or from its test-jar.
 */
@AnalyzeClasses(packages = "org.lockstep", importOptions = ArchitectureTest.MainCode.class)
class ArchitectureTest {

    /** Main classes only: neither a module's test classes nor the test fixtures other modules get as a test-jar. */
    static final class MainCode implements ImportOption {
        @Override
        public boolean includes(Location location) {
            return !location.contains("/test-classes/") && !location.matches(Pattern.compile(".*-tests\\.jar.*"));
        }
    }

    @ArchTest
    static final ArchRule domainIsTheBottom = noClasses().that().resideInAPackage("org.lockstep.domain..")
            .should().dependOnClassesThat(lockstepOutside("org.lockstep.domain..", "org.lockstep.text"))
            .because("everything else builds on the domain: customers, versions, outcomes, the merge, lease rules");

    @ArchTest
    static final ArchRule executorsLeanOnNothingOfLockstep = noClasses().that()
            .resideInAPackage("org.lockstep.concurrency..")
            .should().dependOnClassesThat(lockstepOutside("org.lockstep.concurrency.."));

    @ArchTest
    static final ArchRule theSqlKnowsNotHowTheServerIsRun = noClasses().that().resideInAPackage("org.lockstep.store..")
            .should().dependOnClassesThat().resideInAPackage("org.lockstep.server..");

    @ArchTest
    static final ArchRule viewModelsUseNoSceneGraph = noClasses().that().haveNameMatching(".*ViewModel(\\$.*)?")
            // View-model code outside ui.editor (whose every non-view class is held by editorPartsUseNoSceneGraph).
            .or().haveSimpleName("HolderMessaging").or().haveSimpleName("PresenceBoard")
            .or().haveSimpleName("SupervisorAsk")
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

    /**
     * The editor is a composition of parts around an {@code EditorSession} (issue 25): no part calls back into the
     * editor's view model. Only the classes that say why with {@link AllowedToUseEditorViewModel} — the view and its
     * window — and the view model itself depend on it; a class nested in one counts as that class.
     */
    @ArchTest
    static final ArchRule editorPartsDoNotKnowTheEditorViewModel = noClasses().that()
            .resideInAPackage("org.lockstep.ui.editor").and(not(topLevelClass(
                    DescribedPredicate.describe("annotated with @AllowedToUseEditorViewModel",
                            c -> c.isAnnotatedWith(AllowedToUseEditorViewModel.class)
                                    || c.isEquivalentTo(CustomerEditorViewModel.class)))))
            .should().dependOnClassesThat().belongToAnyOf(CustomerEditorViewModel.class)
            .because("a part gets the editor's session and its own collaborators, never the view model");

    /**
     * In {@code ui.editor} no classes depend on each other in a circle (issue 25): a part that needs another takes it,
     * and the other tells it nothing back but through the session's events. Not only pairs: A → B → C → A is a circle
     * too. Nested, anonymous and lambda classes count as their top-level class.
     */
    @ArchTest
    static void noEditorClassesDependOnEachOtherInACircle(JavaClasses classes) {
        Map<String, Set<String>> uses = new TreeMap<>();
        for (JavaClass c : classes.that(resideInAPackage("org.lockstep.ui.editor"))) {
            Set<String> used = uses.computeIfAbsent(topLevel(c).getName(), k -> new TreeSet<>());
            for (Dependency d : c.getDirectDependenciesFromSelf()) {
                JavaClass target = d.getTargetClass();
                if (target.getPackageName().equals("org.lockstep.ui.editor")
                        && !topLevel(target).getName().equals(topLevel(c).getName())) {
                    used.add(topLevel(target).getName());
                }
            }
        }
        assertThat(circles(uses)).as("classes of ui.editor that depend on each other in a circle").isEmpty();
    }

    /**
     * In the editor only its views build nodes: every other class of {@code ui.editor} — the view model and each part,
     * including parts added later — uses no {@code javafx.scene}. The views are named for what they are
     * ({@code …View}, {@code …Window}, {@code …Form}, {@code …Dialogs}).
     */
    @ArchTest
    static final ArchRule editorPartsUseNoSceneGraph = noClasses().that().resideInAPackage("org.lockstep.ui.editor")
            .and().haveNameNotMatching(".*(View|Window|Form|Dialogs)(\\$.*)?")
            .should().dependOnClassesThat().resideInAPackage("javafx.scene..")
            .because("an editor part exposes plain data and properties; the views build the nodes");

    /** The strongly connected components of more than one class in {@code uses} (Tarjan), each as "A -> B -> …". */
    private static List<String> circles(Map<String, Set<String>> uses) {
        Map<String, Integer> index = new TreeMap<>();
        Map<String, Integer> low = new TreeMap<>();
        Deque<String> stack = new ArrayDeque<>();
        Set<String> onStack = new TreeSet<>();
        List<String> found = new ArrayList<>();
        for (String start : uses.keySet()) {
            if (!index.containsKey(start)) {
                connect(start, uses, index, low, stack, onStack, found);
            }
        }
        return found;
    }

    private static void connect(String v, Map<String, Set<String>> uses, Map<String, Integer> index,
            Map<String, Integer> low, Deque<String> stack, Set<String> onStack, List<String> found) {
        index.put(v, index.size());
        low.put(v, index.get(v));
        stack.push(v);
        onStack.add(v);
        for (String w : uses.getOrDefault(v, Set.of())) {
            if (!index.containsKey(w)) {
                connect(w, uses, index, low, stack, onStack, found);
                low.put(v, Math.min(low.get(v), low.get(w)));
            } else if (onStack.contains(w)) {
                low.put(v, Math.min(low.get(v), index.get(w)));
            }
        }
        if (low.get(v).equals(index.get(v))) {
            List<String> component = new ArrayList<>();
            String w;
            do {
                w = stack.pop();
                onStack.remove(w);
                component.add(w.substring(w.lastIndexOf('.') + 1));
            } while (!w.equals(v));
            if (component.size() > 1) {
                found.add(String.join(" <-> ", component));
            }
        }
    }

    /** {@code predicate} holds for the top-level class of a class (the class itself when it is top-level). */
    private static DescribedPredicate<JavaClass> topLevelClass(DescribedPredicate<JavaClass> predicate) {
        return DescribedPredicate.describe("in a top-level class " + predicate.getDescription(),
                c -> predicate.test(topLevel(c)));
    }

    private static JavaClass topLevel(JavaClass c) {
        JavaClass top = c;
        while (top.getEnclosingClass().isPresent()) {
            top = top.getEnclosingClass().get();
        }
        return top;
    }

    /** Lockstep's classes outside {@code packages}. */
    private static DescribedPredicate<JavaClass> lockstepOutside(String... packages) {
        return resideInAPackage("org.lockstep..").and(not(resideInAnyPackage(packages)))
                .as("Lockstep classes outside " + String.join(", ", packages));
    }
}
