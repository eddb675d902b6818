package io.dynarestore.contracts.access;

import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.contracts.request.Destination;
import io.dynarestore.contracts.request.RestoreRequests;
import io.dynarestore.contracts.request.Source;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class AccessTest {

    static final String HOME = "000000000000";
    static final String ABROAD = "111111111111";

    static Stream<Arguments> requests() {
        return Stream.of(
                Arguments.of(HOME, new Destination.NewTable(null, null, "t", null), EnumSet.of(Role.RESTORE)),
                Arguments.of(null, new Destination.NewTable(HOME, null, "t", null), EnumSet.of(Role.RESTORE)),
                Arguments.of(HOME, new Destination.File("CSV", null), EnumSet.of(Role.RESTORE)),
                Arguments.of(HOME, new Destination.ExistingTable(null, null, "t"), EnumSet.of(Role.RESTORE_OVERWRITE)),
                Arguments.of(HOME, new Destination.InPlace(), EnumSet.of(Role.RESTORE_IN_PLACE)),
                Arguments.of(
                        ABROAD,
                        new Destination.NewTable(HOME, null, "t", null),
                        EnumSet.of(Role.RESTORE, Role.CROSS_ACCOUNT)),
                Arguments.of(
                        HOME,
                        new Destination.NewTable(ABROAD, null, "t", null),
                        EnumSet.of(Role.RESTORE, Role.CROSS_ACCOUNT)),
                Arguments.of(
                        HOME,
                        new Destination.ExistingTable(ABROAD, null, "t"),
                        EnumSet.of(Role.RESTORE_OVERWRITE, Role.CROSS_ACCOUNT)),
                Arguments.of(
                        ABROAD,
                        new Destination.InPlace(ABROAD, null),
                        EnumSet.of(Role.RESTORE_IN_PLACE, Role.CROSS_ACCOUNT)),
                Arguments.of(ABROAD, new Destination.File("CSV", null), EnumSet.of(Role.RESTORE, Role.CROSS_ACCOUNT)));
    }

    @ParameterizedTest(name = "from {0} into {1}: {2}")
    @MethodSource("requests")
    void needsTheDestinationsRolePlusCrossAccountWhenAnotherAccountIsInvolved(
            String sourceAccount, Destination destination, Set<Role> expected) {
        var request = RestoreRequests.aRestore("r")
                .from(new Source(sourceAccount, null, "orders", "b1", null, null))
                .into(destination)
                .build();
        assertThat(Access.requiredFor(request, HOME)).isEqualTo(expected);
        assertThat(Access.missing(expected, List.of(Role.values()))).isEmpty();
        assertThat(Access.missing(expected, List.of(Role.READ))).isEqualTo(expected);
    }

    static Stream<Arguments> existingTables() {
        return Stream.of(
                Arguments.of(new Destination.ExistingTable(null, null, "orders"), Role.RESTORE_IN_PLACE),
                Arguments.of(new Destination.ExistingTable(HOME, "us-east-1", "orders"), Role.RESTORE_IN_PLACE),
                Arguments.of(new Destination.ExistingTable(HOME, null, "orders"), Role.RESTORE_IN_PLACE),
                Arguments.of(new Destination.ExistingTable(null, "eu-west-1", "orders"), Role.RESTORE_OVERWRITE),
                Arguments.of(new Destination.ExistingTable(null, null, "orders-copy"), Role.RESTORE_OVERWRITE));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("existingTables")
    void anExistingTableThatIsTheSourceTableNeedsRestoreInPlace(Destination destination, Role expected) {
        // Given a request from orders in the default account and us-east-1
        var request = RestoreRequests.aRestore("r")
                .from(new Source(null, "us-east-1", "orders", "b1", null, null))
                .into(destination)
                .build();

        // Then naming the source table as an existing table is an in-place restore
        assertThat(Access.requiredFor(request, HOME)).containsExactly(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {HOME, ABROAD})
    void readingBackupDataOrTheCatalogOfAnotherAccountNeedsCrossAccount(String account) {
        boolean foreign = account.equals(ABROAD);
        assertThat(Access.toReadBackupData(account, HOME))
                .isEqualTo(foreign ? EnumSet.of(Role.RESTORE, Role.CROSS_ACCOUNT) : EnumSet.of(Role.RESTORE));
        assertThat(Access.toReadCatalog(account, HOME))
                .isEqualTo(foreign ? EnumSet.of(Role.READ, Role.CROSS_ACCOUNT) : EnumSet.of(Role.READ));
        assertThat(Access.toRegisterExports(account, HOME))
                .isEqualTo(
                        foreign
                                ? EnumSet.of(Role.REGISTER_EXPORTS, Role.CROSS_ACCOUNT)
                                : EnumSet.of(Role.REGISTER_EXPORTS));
        assertThat(Access.toFollow(
                        RestoreRequests.aRestore("r")
                                .from(new Source(HOME, null, "orders", "b1", null, null))
                                .into(new Destination.NewTable(account, null, "t", null))
                                .build(),
                        HOME))
                .isEqualTo(foreign ? EnumSet.of(Role.READ, Role.CROSS_ACCOUNT) : EnumSet.of(Role.READ));
    }

    @ParameterizedTest
    @ValueSource(strings = {"restore-in-place", "RESTORE_IN_PLACE", " Restore-In-Place "})
    void parsesRoleNamesAsConfigurationAndTokensWriteThem(String name) {
        assertThat(Role.parse(name)).contains(Role.RESTORE_IN_PLACE);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "admin", "restore-all", "in-place"})
    void knowsNoOtherRoles(String name) {
        assertThat(Role.parse(name)).isEmpty();
    }
}
