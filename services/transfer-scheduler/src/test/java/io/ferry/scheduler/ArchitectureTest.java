package io.ferry.scheduler;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noFields;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The scheduler's package rules: features in packages whose dependencies point one way, the engine's loops above the
 * features they orchestrate, the REST layer at the edge, one writer of file and job state, and constructor injection.
 */
class ArchitectureTest {

    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.ferry.scheduler");

    /** What every feature may use: settings, the database plumbing, the queue's rows and states, the parsed submission, FTS3's shapes. */
    private static final String[] VOCABULARY = {"io.ferry.scheduler.config", "io.ferry.scheduler.db", "io.ferry.scheduler.queue",
            "io.ferry.scheduler.submission", "io.ferry.scheduler.fts3"};

    /** Resources (classes, not the REST clients' interfaces, with {@code @Path}) and the records they read and write. */
    private static final DescribedPredicate<JavaClass> REST_LAYER = DescribedPredicate.describe("the REST layer", ArchitectureTest::restLayer);

    @Test
    void noPackageCycle() {
        slices().matching("io.ferry.scheduler.(**)").should().beFreeOfCycles().check(MAIN);
    }

    @Test
    void theEngineDependsOnFeaturesAndNoFeatureOnTheEngine() {
        noClasses().that().resideOutsideOfPackage("io.ferry.scheduler.engine..")
                .should().dependOnClassesThat().resideInAPackage("io.ferry.scheduler.engine..")
                .check(MAIN);
    }

    @Test
    void theSharedVocabularyDependsOnNoFeature() {
        noClasses().that().resideInAnyPackage(VOCABULARY)
                .should().dependOnClassesThat(resideInAPackage("io.ferry.scheduler..").and(not(resideInAnyPackage(VOCABULARY))))
                .check(MAIN);
    }

    @Test
    void theRestLayerIsUsedByNothingBelowIt() {
        noClasses().that(not(REST_LAYER))
                .should().dependOnClassesThat(REST_LAYER)
                .check(MAIN);
    }

    /** Beans take what they need in their {@code @Inject} constructor (qualifiers on its parameters), into final fields. */
    @Test
    void beansAreInjectedThroughTheirConstructor() {
        noFields().should().beAnnotatedWith(Inject.class)
                .check(MAIN);
    }

    /** ArchUnit sees calls, not SQL: the statements that change transfer_file or job are found in the sources. */
    @Test
    void onlyTransitionsWritesFilesAndJobs() throws IOException {
        Pattern write = Pattern.compile("(?i)\\b(UPDATE|INSERT\\s+INTO|DELETE\\s+FROM)\\s+(transfer_file|job)\\b");
        Path main = Paths.get("src/main/java/io/ferry/scheduler");
        Path transitions = main.resolve("transitions");
        List<String> writers;
        try (Stream<Path> files = Files.walk(main)) {
            writers = files.filter(f -> f.toString().endsWith(".java") && !f.startsWith(transitions))
                    .filter(f -> write.matcher(read(f)).find())
                    .map(f -> main.relativize(f).toString())
                    .sorted().toList();
        }
        assertEquals(List.of(), writers, "files outside transitions that write transfer_file or job");
    }

    private static boolean restLayer(JavaClass c) {
        if (!c.getPackageName().startsWith("io.ferry.scheduler")) {
            return false;
        }
        boolean resource = c.isAnnotatedWith(jakarta.ws.rs.Path.class) && !c.isInterface();
        boolean shape = c.isTopLevelClass() && c.getSimpleName().matches(".*(View|Views|Input)");
        return resource || shape || c.getEnclosingClass().map(ArchitectureTest::restLayer).orElse(false);
    }

    private static String read(Path f) {
        try {
            return Files.readString(f);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
