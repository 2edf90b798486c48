package io.ferry.profiles;

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

/** How tcp-profiles's packages may depend on each other (see the README's "Code layout"). */
class ArchitectureTest {

    static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.ferry.profiles");

    @Test
    void packagesHaveNoCycles() {
        slices().matching("io.ferry.profiles.(**)").should().beFreeOfCycles().check(CLASSES);
    }

    @Test
    void logicAndStorageNeverDependOnTheEndpoints() {
        noClasses().that().resideInAnyPackage("io.ferry.profiles.service..", "io.ferry.profiles.repository..", "io.ferry.profiles.model..")
                .should().dependOnClassesThat().resideInAPackage("io.ferry.profiles.rest..")
                .check(CLASSES);
    }

    @Test
    void wireRecordsDependOnNothingOfTheServiceButItsModel() {
        noClasses().that().resideInAPackage("io.ferry.profiles.api..")
                .should().dependOnClassesThat(resideInAPackage("io.ferry.profiles..")
                        .and(not(resideInAnyPackage("io.ferry.profiles.api..", "io.ferry.profiles.model.."))))
                .check(CLASSES);
    }

    @Test
    void recordsTheEndpointsReturnLiveInTheApi() {
        methods().that().areDeclaredInClassesThat().resideInAPackage("io.ferry.profiles.rest..").and().arePublic()
                .should(new ArchCondition<JavaMethod>("return records of the api (or the model) only") {
                    @Override
                    public void check(JavaMethod method, ConditionEvents events) {
                        for (JavaClass type : method.getReturnType().getAllInvolvedRawTypes()) {
                            boolean record = type.getRawSuperclass().map(s -> s.isEquivalentTo(Record.class)).orElse(false);
                            if (record && type.getPackageName().startsWith("io.ferry.profiles.")
                                    && !type.getPackageName().startsWith("io.ferry.profiles.api") && !type.getPackageName().startsWith("io.ferry.profiles.model")) {
                                events.add(SimpleConditionEvent.violated(method, method.getFullName() + " returns " + type.getName()));
                            }
                        }
                    }
                })
                .check(CLASSES);
    }
}
