package org.lockstep.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.lockstep.server.admin.PsqlFile;

/**
 * The groups are made in two places — by the embedded server ({@link AppRoleSetup#GROUPS}) and by {@code
 * docs/admin/team-roles.sql} on a team server — and must be the same groups; and the file {@code lockstep admin
 * setup} runs from its jar is docs/admin's, not a copy.
 */
class TeamRolesFileTest {

    static final Path FILE = Path.of("..", "docs", "admin", "team-roles.sql");

    @Test
    void teamRolesMakesEveryGroupTheEmbeddedServerMakesAsItMakesIt() throws Exception {
        String file = Files.readString(FILE, StandardCharsets.UTF_8);
        Matcher m = Pattern.compile("CREATE ROLE (\\w+) NOLOGIN( IN ROLE \\w+)?").matcher(AppRoleSetup.GROUPS);
        List<String> groups = new ArrayList<>();
        while (m.find()) {
            groups.add(m.group());
        }

        assertThat(groups).hasSize(3);
        assertThat(groups).allSatisfy(g -> assertThat(file).contains("'" + g + "'"));
    }

    @Test
    void theFileTheCommandsRunIsDocsAdmins() throws Exception {
        for (String name : List.of("team-roles.sql", "add-operator.sql")) {
            assertThat(PsqlFile.resource(name).text())
                    .isEqualTo(Files.readString(FILE.resolveSibling(name), StandardCharsets.UTF_8));
        }
    }
}
