package io.ferry.resolver;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/** How handle-resolver's packages may depend on each other (see the README's "Code layout"). */
class ArchitectureTest {

    static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.ferry.resolver");

    @Test
    void packagesHaveNoCycles() {
        slices().matching("io.ferry.resolver.(**)").should().beFreeOfCycles().check(CLASSES);
    }

    @Test
    void logicAndStorageNeverDependOnTheEndpoints() {
        noClasses().that().resideInAnyPackage("io.ferry.resolver.handles..", "io.ferry.resolver.authentication..", "io.ferry.resolver.cache..",
                        "io.ferry.resolver.resolution..", "io.ferry.resolver.proxy..", "io.ferry.resolver.replicas..",
                        "io.ferry.resolver.nativeprotocol..", "io.ferry.resolver.repository..", "io.ferry.resolver.model..")
                .should().dependOnClassesThat().resideInAPackage("io.ferry.resolver.rest..")
                .check(CLASSES);
    }

    @Test
    void wireRecordsDependOnNothingOfTheServiceButItsModel() {
        noClasses().that().resideInAPackage("io.ferry.resolver.api..")
                .should().dependOnClassesThat(resideInAPackage("io.ferry.resolver..")
                        .and(not(resideInAnyPackage("io.ferry.resolver.api..", "io.ferry.resolver.model.."))))
                .check(CLASSES);
    }

    @Test
    void recordsTheEndpointsReturnLiveInTheApi() {
        methods().that().areDeclaredInClassesThat().resideInAPackage("io.ferry.resolver.rest..").and().arePublic()
                .should(new ArchCondition<JavaMethod>("return records of the api (or the model) only") {
                    @Override
                    public void check(JavaMethod method, ConditionEvents events) {
                        for (JavaClass type : method.getReturnType().getAllInvolvedRawTypes()) {
                            boolean record = type.getRawSuperclass().map(s -> s.isEquivalentTo(Record.class)).orElse(false);
                            if (record && type.getPackageName().startsWith("io.ferry.resolver.")
                                    && !type.getPackageName().startsWith("io.ferry.resolver.api") && !type.getPackageName().startsWith("io.ferry.resolver.model")) {
                                events.add(SimpleConditionEvent.violated(method, method.getFullName() + " returns " + type.getName()));
                            }
                        }
                    }
                })
                .check(CLASSES);
    }
}
