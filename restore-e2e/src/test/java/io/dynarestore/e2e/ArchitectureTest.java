package io.dynarestore.e2e;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** The module rules of the project, checked on the compiled classes of every module. */
@AnalyzeClasses(packages = "io.dynarestore", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    @ArchTest
    static final ArchRule contractsAreWhatAnyClientCanDependOn = noClasses()
            .that()
            .resideInAPackage("io.dynarestore.contracts..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(
                    "org.springframework..", "software.amazon..", "org.apache.kafka..", "io.dynarestore.core..")
            .because("restore-contracts is what an upstream system depends on");

    @ArchTest
    static final ArchRule coreIsALibraryWithoutSpring = noClasses()
            .that()
            .resideInAPackage("io.dynarestore.core..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("org.springframework..");

    @ArchTest
    static final ArchRule servicesDoNotReachIntoEachOther = noClasses()
            .that()
            .resideInAnyPackage("io.dynarestore.api..", "io.dynarestore.exporter..", "io.dynarestore.notifier..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("io.dynarestore.planner..", "io.dynarestore.writer..")
            .andShould()
            .dependOnClassesThat()
            .resideInAnyPackage("io.dynarestore.local..");

    @ArchTest
    static final ArchRule plannerAndWriterDoNotReachIntoEachOther = noClasses()
            .that()
            .resideInAPackage("io.dynarestore.planner..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("io.dynarestore.writer..", "io.dynarestore.api..");

    @ArchTest
    static final ArchRule writerDependsOnNoOtherService = noClasses()
            .that()
            .resideInAPackage("io.dynarestore.writer..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("io.dynarestore.planner..", "io.dynarestore.api..");

    @ArchTest
    static final ArchRule packagesAreFeaturesNotLayers =
            noClasses().should().resideInAnyPackage("..service..", "..controller..", "..controllers..", "..services..");
}
