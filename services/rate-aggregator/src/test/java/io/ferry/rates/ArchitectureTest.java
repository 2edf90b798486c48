package io.ferry.rates;

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

/** How rate-aggregator's packages may depend on each other (see the README's "Code layout"). */
class ArchitectureTest {

    static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.ferry.rates");

    @Test
    void packagesHaveNoCycles() {
        slices().matching("io.ferry.rates.(**)").should().beFreeOfCycles().check(CLASSES);
    }

    @Test
    void logicAndStorageNeverDependOnTheEndpoints() {
        noClasses().that().resideInAnyPackage("io.ferry.rates.service..", "io.ferry.rates.repository..", "io.ferry.rates.model..",
                        "io.ferry.rates.alto", "io.ferry.rates.alto.api..")
                .should().dependOnClassesThat().resideInAnyPackage("io.ferry.rates.rest..", "io.ferry.rates.alto.rest..")
                .check(CLASSES);
    }

    @Test
    void wireRecordsDependOnNothingOfTheServiceButItsModel() {
        noClasses().that().resideInAPackage("io.ferry.rates.api..")
                .should().dependOnClassesThat(resideInAPackage("io.ferry.rates..")
                        .and(not(resideInAnyPackage("io.ferry.rates.api..", "io.ferry.rates.model.."))))
                .check(CLASSES);
    }

    @Test
    void recordsTheEndpointsReturnLiveInTheApi() {
        methods().that().areDeclaredInClassesThat().resideInAPackage("io.ferry.rates.rest..").and().arePublic()
                .should(new ArchCondition<JavaMethod>("return records of the api (or the model) only") {
                    @Override
                    public void check(JavaMethod method, ConditionEvents events) {
                        for (JavaClass type : method.getReturnType().getAllInvolvedRawTypes()) {
                            boolean record = type.getRawSuperclass().map(s -> s.isEquivalentTo(Record.class)).orElse(false);
                            if (record && type.getPackageName().startsWith("io.ferry.rates.")
                                    && !type.getPackageName().startsWith("io.ferry.rates.api") && !type.getPackageName().startsWith("io.ferry.rates.model")) {
                                events.add(SimpleConditionEvent.violated(method, method.getFullName() + " returns " + type.getName()));
                            }
                        }
                    }
                })
                .check(CLASSES);
    }
}
