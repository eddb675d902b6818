package io.dynarestore.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.contracts.request.Scope;
import io.dynarestore.core.codec.DynamoJson;
import io.dynarestore.core.filter.KeySchema;
import io.dynarestore.core.filter.RecordFilter;
import io.dynarestore.testkit.ItemDigests;
import io.dynarestore.testkit.LocalApi;
import io.dynarestore.testkit.RandomHistory;
import io.dynarestore.testkit.RandomItems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The web page in headless chromium: a person picks a table and a backup on its calendar, asks
 * for some records, previews them, starts the restore and watches it complete in the tasks list.
 * Skipped where no chromium is installed (.ci/run installs Debian's).
 */
class WebPageIT {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    static final int ITEMS = 1_500;
    static RestoreStack stack;
    static RandomItems items = new RandomItems(5150, BackupFixtures.SHAPE);

    @BeforeAll
    static void startStack() throws Exception {
        Assumptions.assumeTrue(HeadlessChromium.binary().isPresent(), "no chromium on this machine");
        stack = SharedStack.get();
        var source = BackupFixtures.createSourceTable(stack.dynalite.client(), "customers");
        BackupFixtures.writeItems(stack, source, "b-web", items.items(ITEMS), 300, List.of(), null, null);
    }

    @Test
    void restoresSomeRecordsFromTheCalendarWithAPreviewAndShowsTheRestoreComplete() throws Exception {
        Path profile = RestoreStack.logDir().resolve("chromium-profile");
        try (var browser = new HeadlessChromium(stack.apiUri("/"), profile)) {
            // Given the page, which asks for a credential, and the person signs in with the API key
            browser.waitFor(
                    "document.querySelector('#sign-in') && document.querySelector('#sign-in').open",
                    Duration.ofSeconds(30));
            assertThat(browser.eval("document.querySelector('#sign-in-why').textContent")
                            .asString())
                    .contains("X-Api-Key");
            browser.eval("document.querySelector('#sign-in-value').value = '" + LocalApi.KEY
                    + "'; document.querySelector('#sign-in-btn').click()");
            // and the vault's tables are listed
            browser.waitFor("document.body.dataset.ready === 'true'", Duration.ofSeconds(30));
            browser.waitFor("document.querySelector('.table-link[data-table=\"customers\"]')", Duration.ofSeconds(10));

            // When the person opens the table, its calendar shows the day of the backup
            browser.eval("document.querySelector('.table-link[data-table=\"customers\"]').click()");
            browser.waitFor("document.querySelectorAll('#backup-id option').length === 1", Duration.ofSeconds(20));
            browser.waitFor("document.querySelector('.day.has-backup .backup-chip')", Duration.ofSeconds(10));
            browser.eval("document.querySelector('.day.has-backup .backup-chip').click()");
            assertThat(browser.eval("document.querySelector('#backup-id').value")
                            .asString())
                    .isEqualTo("b-web");
            // and the table view says the table is not protected, offering the form that protects it
            browser.waitFor(
                    "document.querySelector('#protection-summary').textContent.startsWith('Not protected')",
                    Duration.ofSeconds(10));
            assertThat(browser.eval("document.querySelector('#protect-form').hidden")
                            .asBoolean())
                    .isFalse();
            browser.eval("document.querySelector('#protect-btn').click()");
            browser.waitFor(
                    "document.querySelector('#protection-summary').textContent.includes('NEW_AND_OLD_IMAGES')",
                    Duration.ofSeconds(10));
            browser.screenshot(RestoreStack.logDir().resolve("table-view.png"));

            // and asks for the records whose partition key begins with p2, into a new on-demand table
            browser.eval("""
                    (() => {
                      const set = (sel, v) => { const e = document.querySelector(sel); e.value = v;
                        e.dispatchEvent(new Event('change', {bubbles: true})); };
                      set('#scope', 'RECORDS'); set('.key-filter .pk-condition', 'BeginsWith');
                      set('.key-filter .pk-value', 'p2');
                      set('#dest-type', 'NEW_TABLE'); set('#dest-table', 'customers-web');
                      document.querySelector('#advanced').open = true; set('#billing', 'PAY_PER_REQUEST');
                    })()""");

            // and previews them
            browser.eval("document.querySelector('#preview-btn').click()");
            browser.waitFor("document.querySelectorAll('#preview-table tbody tr').length > 0", Duration.ofSeconds(20));

            // Then the preview shows only such records
            JsonNode keys = browser.eval("""
                    (() => { const i = [...document.querySelectorAll('#preview-table thead th')]
                               .findIndex(th => th.textContent === 'pk');
                             return [...document.querySelectorAll('#preview-table tbody tr')]
                               .map(tr => tr.children[i].textContent); })()""");
            assertThat(keys).isNotEmpty();
            keys.forEach(k -> assertThat(k.asString()).startsWith("p2"));

            // When the restore is started
            browser.eval("document.querySelector('#start-btn').click()");
            browser.waitFor(
                    "document.querySelector('#answer') && !document.querySelector('#answer').hidden",
                    Duration.ofSeconds(20));
            String restoreId = browser.eval("document.querySelector('#tasks tbody tr').dataset.restore")
                    .asString();

            // Then the tasks list follows it live to COMPLETED, with a full progress bar
            browser.waitFor(
                    "document.querySelector('#tasks tbody tr[data-restore=\"" + restoreId
                            + "\"] .state').textContent === 'COMPLETED'",
                    Duration.ofMinutes(2));
            assertThat(browser.eval("document.querySelector('#tasks tbody tr[data-restore=\"" + restoreId
                                    + "\"] progress').value")
                            .asDouble())
                    .isEqualTo(100.0);
            // and says which records it took
            assertThat(browser.eval("document.querySelector('#tasks tbody tr[data-restore=\"" + restoreId
                                    + "\"] .source .scope').textContent")
                            .asString())
                    .isEqualTo("records: partition key BeginsWith p2");
            browser.eval("document.querySelector('#preview').replaceChildren(); "
                    + "document.querySelector('#tasks-pane').scrollIntoView()");
            browser.screenshot(RestoreStack.logDir().resolve("tasks-page.png"));

            // When the person dry-runs the records beginning with p3 in place
            var before = ItemDigests.ofTable(stack.dynalite.client(), "customers", BackupFixtures.KEYS);
            browser.eval("""
                    (() => {
                      const set = (sel, v) => { const e = document.querySelector(sel); e.value = v;
                        e.dispatchEvent(new Event('change', {bubbles: true})); };
                      set('.key-filter .pk-value', 'p3'); set('#dest-type', 'IN_PLACE');
                      document.querySelector('#dry-run').checked = true;
                      document.querySelector('#start-btn').click();
                    })()""");
            browser.waitFor(
                    "document.querySelector('#tasks tbody tr').dataset.restore !== '" + restoreId + "'",
                    Duration.ofSeconds(20));
            String dryRun = browser.eval("document.querySelector('#tasks tbody tr').dataset.restore")
                    .asString();

            // Then the task ends as a dry run that says what it would create, and the table is untouched
            browser.waitFor(
                    "document.querySelector('#tasks tbody tr[data-restore=\"" + dryRun + "\"] .state')"
                            + ".textContent === 'COMPLETED (dry run)'",
                    Duration.ofMinutes(2));
            String outcome = "document.querySelector('tr[data-outcome=\"" + dryRun + "\"]').textContent";
            browser.waitFor(outcome + ".includes('Would create')", Duration.ofSeconds(20));
            assertThat(ItemDigests.ofTable(stack.dynalite.client(), "customers", BackupFixtures.KEYS))
                    .isEqualTo(before);

            // When the restore runs for real, then is rolled back from its task
            browser.eval("document.querySelector('#dry-run').checked = false; "
                    + "document.querySelector('#start-btn').click()");
            browser.waitFor(
                    "document.querySelector('#tasks tbody tr').dataset.restore !== '" + dryRun + "'",
                    Duration.ofSeconds(20));
            String real = browser.eval("document.querySelector('#tasks tbody tr').dataset.restore")
                    .asString();
            String button = "document.querySelector('#tasks tbody tr[data-restore=\"" + real + "\"] button.rollback')";
            browser.waitFor(button, Duration.ofMinutes(2));
            String realOutcome = "document.querySelector('tr[data-outcome=\"" + real + "\"]').textContent";
            assertThat(browser.eval(realOutcome).asString()).contains("Verification PASSED");
            assertThat(ItemDigests.ofTable(stack.dynalite.client(), "customers", BackupFixtures.KEYS))
                    .isNotEqualTo(before);
            browser.eval("window.confirm = () => true; " + button + ".click()");

            // Then the task shows the rollback done, and the table is as it was
            browser.waitFor(realOutcome + ".includes('Rollback COMPLETED')", Duration.ofMinutes(2));
            assertThat(ItemDigests.ofTable(stack.dynalite.client(), "customers", BackupFixtures.KEYS))
                    .isEqualTo(before);
        }

        // and the new table holds exactly the matching records
        var filter = RecordFilter.compile(
                new Scope.Records(
                        List.of(new Scope.KeyFilter(new Scope.Condition("BeginsWith", List.of("p2")), null)),
                        List.of()),
                KeySchema.of(List.of("pk", "sk"), List.of("S", "N")));
        var expected = items.items(ITEMS).stream().filter(filter::matches).toList();
        assertThat(ItemDigests.ofTable(stack.dynalite.client(), "customers-web", BackupFixtures.KEYS))
                .isEqualTo(ItemDigests.of(expected, BackupFixtures.KEYS));
        assertThat(Files.size(RestoreStack.logDir().resolve("tasks-page.png"))).isGreaterThan(10_000);
    }

    @Test
    void undoesATimeWindowFromTheDialogAndShowsTheKeysWrittenAgainAfterIt() throws Exception {
        // Given a table whose change log runs up to now, with a window (T1, T2] followed by more writes
        long second = HistoryFixtures.SECOND;
        long t0 = (Instant.now().getEpochSecond() - 100) * second + 500_000;
        var history = new RandomHistory(31, RandomItems.Shape.simple(), 60, 160, t0, 90 * second);
        HistoryFixtures.liveTable(stack, "undo-web", history, RandomItems.Shape.simple(), t0, 9);
        long t1 = t0 / second + 20;
        long t2 = t1 + 30;
        var atT1 = history.imageBefore((t1 + 1) * second);
        var live = history.imageBefore(Long.MAX_VALUE);
        var after = new HashSet<String>();
        history.writesIn((t2 + 1) * second, Long.MAX_VALUE, false)
                .forEach(w -> after.add(ItemDigests.key(w.keys(), history.keyAttributes())));
        var expected = new TreeMap<>(live);
        var conflicts = new HashSet<String>();
        for (var w : history.writesIn((t1 + 1) * second, (t2 + 1) * second, false)) {
            String key = ItemDigests.key(w.keys(), history.keyAttributes());
            if (after.contains(key)) {
                conflicts.add(key);
            } else if (atT1.containsKey(key)) {
                expected.put(key, atT1.get(key));
            } else {
                expected.remove(key);
            }
        }
        assertThat(conflicts)
                .as("the history writes some keys again after the window")
                .isNotEmpty();

        Path profile = RestoreStack.logDir().resolve("chromium-profile-undo");
        try (var browser = new HeadlessChromium(stack.apiUri("/"), profile)) {
            signInAndOpen(browser, "undo-web");
            browser.waitFor(
                    "document.querySelector('#table-title').textContent.includes('undo-web')", Duration.ofSeconds(20));

            // When the person undoes the window from the dialog, strictly, leaving the keys written again after it
            browser.eval("""
                    (() => {
                      const set = (sel, v) => { const e = document.querySelector(sel); e.value = v;
                        e.dispatchEvent(new Event('change', {bubbles: true})); };
                      set('#source-kind', 'undo'); set('#scope', 'FULL');
                      set('#point-in-time', '%s'); set('#undo-until', '%s'); set('#undo-conflict', 'LEAVE');
                      document.querySelector('#undo-strict').checked = true;
                      document.querySelector('#dry-run').checked = false;
                      document.querySelector('#start-btn').click();
                    })()""".formatted(Instant.ofEpochSecond(t1), Instant.ofEpochSecond(t2)));
            browser.waitFor(
                    "document.querySelector('#answer') && document.querySelector('#answer').textContent.includes('Restore')",
                    Duration.ofSeconds(20));
            String id = browser.eval("document.querySelector('#tasks tbody tr').dataset.restore")
                    .asString();

            // Then the destination was the table itself, the undo was strict, the task completes and
            // reports the conflicts
            assertThat(browser.eval("document.querySelector('#dest-type').value")
                            .asString())
                    .isEqualTo("IN_PLACE");
            assertThat(Http.get(stack.apiUri("/restores/" + id))
                            .json()
                            .at("/source/undo/strict")
                            .asBoolean())
                    .isTrue();
            browser.waitFor(
                    "document.querySelector('#tasks tbody tr[data-restore=\"" + id
                            + "\"] .state').textContent === 'COMPLETED'",
                    Duration.ofMinutes(2));
            String outcome = "document.querySelector('tr[data-outcome=\"" + id + "\"]')";
            browser.waitFor(
                    outcome + ".textContent.includes('written again after the window')", Duration.ofSeconds(20));
            assertThat(browser.eval(outcome + ".querySelector('.conflicts').textContent")
                            .asString())
                    .startsWith(conflicts.size() + " key")
                    .contains("left as they are");
            assertThat(browser.eval(outcome + ".querySelectorAll('.conflict-samples tbody tr').length")
                            .asInt())
                    .isEqualTo(Math.min(10, conflicts.size()));
            browser.eval("document.querySelector('#tasks-pane').scrollIntoView()");
            browser.screenshot(RestoreStack.logDir().resolve("undo-window.png"));
        }
        // and the table holds the window's keys as they were at T1, every other key as it is now
        assertThat(ItemDigests.ofTable(stack.dynalite.client(), "undo-web", List.of("pk", "sk")))
                .isEqualTo(HistoryFixtures.digests(expected));
    }

    @Test
    void offersOnlyTheRestorableSecondsOfADayAndSendsEveryFilterAndTableOptionOfTheDialog() throws Exception {
        // Given a table whose change log makes restorable the seconds from half past a minute on, for about 90 s
        long second = HistoryFixtures.SECOND;
        long start = (Instant.now().getEpochSecond() - 300) / 60 * 60 + 30;
        var history = new RandomHistory(41, RandomItems.Shape.simple(), 40, 80, start * second + 500_000, 90 * second);
        HistoryFixtures.liveTable(
                stack, "dialog-web", history, RandomItems.Shape.simple(), start * second + 500_000, 9);
        String day = Instant.ofEpochSecond(start).toString().substring(0, 10);
        JsonNode windows = Http.get(stack.apiUri(
                        "/tables/dialog-web/pitr-windows?from=" + day + "T00:00:00Z&to=" + day + "T23:59:59Z"))
                .json()
                .get("windows");
        Instant first = Instant.parse(windows.get(0).get("start").asString());
        Instant last = Instant.parse(windows.get(windows.size() - 1).get("end").asString());
        assertThat(first.getEpochSecond() % 60)
                .as("the window starts inside a minute")
                .isPositive();

        Path profile = RestoreStack.logDir().resolve("chromium-profile-dialog");
        try (var browser = new HeadlessChromium(stack.apiUri("/"), profile)) {
            signInAndOpen(browser, "dialog-web");
            browser.waitFor("document.querySelector('#latest-second')", Duration.ofSeconds(20));

            // When the person opens the latest restorable second from the quick links
            browser.eval("document.querySelector('#latest-second').click()");
            browser.waitFor("document.querySelector('#point-in-time').value !== ''", Duration.ofSeconds(10));

            // Then the selectors show it, and its details say what it is
            assertThat(browser.eval("document.querySelector('#point-in-time').value")
                            .asString())
                    .isEqualTo(Http.get(stack.apiUri("/tables/dialog-web/pitr-windows"))
                            .json()
                            .get("latestRestorable")
                            .asString()); // the day's windows end at midnight; the latest second may be after it
            assertThat(browser.eval("document.querySelector('#quick-detail').textContent")
                            .asString())
                    .contains("latest restorable second");

            // When the person picks the day on the calendar, then the first hour and minute offered
            // are those of the window's start, and that minute offers its restorable seconds only
            browser.eval("document.querySelector('.day[data-date=\"" + day + "\"]').click()");
            browser.waitFor(
                    "document.querySelector('#pit-second').options.length > 0 && "
                            + "document.querySelector('#pit-hour').options[0].value === '" + hour(first) + "'",
                    Duration.ofSeconds(10));
            String options = "(sel) => [...document.querySelector(sel).options].map(o => Number(o.value))";
            // (the hour too: the window may cross an hour, and the selectors keep the latest second's)
            browser.eval("document.querySelector('#pit-hour').value = '" + hour(first)
                    + "'; document.querySelector('#pit-hour').dispatchEvent(new Event('change'));"
                    + " document.querySelector('#pit-minute').value = '" + minute(first)
                    + "'; document.querySelector('#pit-minute').dispatchEvent(new Event('change'))");
            JsonNode seconds = browser.eval("(" + options + ")('#pit-second')");
            var expected = new ArrayList<Integer>();
            for (long t = first.getEpochSecond() / 60 * 60; t < first.getEpochSecond() / 60 * 60 + 60; t++) {
                if (t >= first.getEpochSecond() && t <= last.getEpochSecond()) {
                    expected.add((int) (t % 60));
                }
            }
            assertThat(seconds).extracting(JsonNode::asInt).containsExactlyElementsOf(expected);
            assertThat(seconds)
                    .extracting(JsonNode::asInt)
                    .as("the second before the window cannot be chosen")
                    .doesNotContain((int) (first.getEpochSecond() % 60) - 1);
            assertThat(browser.eval("document.querySelector('#point-in-time').readOnly")
                            .asBoolean())
                    .isTrue();

            // and a day without a restorable second offers none
            browser.eval("document.querySelector('#pit-day').value = '2020-01-01';"
                    + " document.querySelector('#pit-day').dispatchEvent(new Event('change'))");
            browser.waitFor("!document.querySelector('#pit-none').hidden", Duration.ofSeconds(10));
            assertThat(browser.eval("document.querySelector('#pit-second').disabled")
                            .asBoolean())
                    .isTrue();
            assertThat(browser.eval("document.querySelector('#point-in-time').value")
                            .asString())
                    .isEmpty();
            // and asking for it says why, instead of restoring the latest second
            browser.eval("document.querySelector('#preview-btn').click()");
            browser.waitFor("!document.querySelector('#form-error').hidden", Duration.ofSeconds(10));
            assertThat(browser.eval("document.querySelector('#form-error').textContent")
                            .asString())
                    .contains("No second of 2020-01-01 is restorable");

            // When the person picks the fifth second of the window, adds two key filters (one with a
            // sort key) and two attribute filters with "+", and sets every option of a new table
            Instant chosen = first.plusSeconds(5);
            browser.eval("document.querySelector('.day[data-date=\"" + day + "\"]').click()");
            browser.waitFor("document.querySelector('#pit-second').options.length > 0", Duration.ofSeconds(10));
            browser.eval("""
                    (() => {
                      const set = (el, v) => { el.value = v; el.dispatchEvent(new Event('change', {bubbles: true})); };
                      const $ = (sel) => document.querySelector(sel);
                      set($('#pit-hour'), '%s'); set($('#pit-minute'), '%s'); set($('#pit-second'), '%s');
                      set($('#scope'), 'RECORDS');
                      $('#add-key-filter').click(); $('#add-attr-filter').click(); $('#add-attr-filter').click();
                      const keys = document.querySelectorAll('.key-filter');
                      set(keys[0].querySelector('.pk-condition'), 'BeginsWith'); set(keys[0].querySelector('.pk-value'), 'p1');
                      set(keys[0].querySelector('.sk-condition'), 'GreaterThan'); set(keys[0].querySelector('.sk-value'), '5');
                      set(keys[1].querySelector('.pk-condition'), 'EqualTo'); set(keys[1].querySelector('.pk-value'), 'p2x');
                      const attrs = document.querySelectorAll('.attr-filter');
                      set(attrs[0].querySelector('.attr-name'), 'status'); set(attrs[0].querySelector('.attr-value'), 'open');
                      set(attrs[1].querySelector('.attr-name'), 'qty'); set(attrs[1].querySelector('.attr-type'), 'N');
                      set(attrs[1].querySelector('.attr-condition'), 'Between'); set(attrs[1].querySelector('.attr-value'), '1, 9');
                      set($('#dest-type'), 'NEW_TABLE'); set($('#dest-table'), 'dialog-web-copy');
                      $('#advanced').open = true;
                      set($('#table-class'), 'STANDARD_INFREQUENT_ACCESS'); set($('#encryption'), 'AWS_MANAGED');
                      set($('#streams'), 'NEW_IMAGE'); set($('#ttl'), 'on'); set($('#ttl-attribute'), 'expiresAt');
                      set($('#deletion-protection'), 'false'); set($('#tags'), 'team=orders, env=test');
                    })()""".formatted(hour(chosen), minute(chosen), chosen.getEpochSecond() % 60));
            browser.screenshot(RestoreStack.logDir().resolve("restore-dialog.png"));
            // (the page's request body is kept as it is sent, since the task view shows no filters)
            browser.eval("""
                    (() => { const send = window.fetch;
                      window.fetch = (url, init) => {
                        if (String(url).endsWith('/restores') && init && init.method === 'POST') window.sentRestore = init.body;
                        return send(url, init); }; })()""");
            browser.eval("document.querySelector('#start-btn').click()");
            browser.waitFor(
                    "!document.querySelector('#answer').hidden || !document.querySelector('#form-error').hidden",
                    Duration.ofSeconds(20));
            assertThat(browser.eval("document.querySelector('#form-error').hidden ? '' : "
                                    + "document.querySelector('#form-error').textContent")
                            .asString())
                    .as("the page's error")
                    .isEmpty();
            String id = browser.eval("document.querySelector('#tasks tbody tr').dataset.restore")
                    .asString();

            // Then the restore the API accepted is of that second, with every filter and option
            assertThat(Http.get(stack.apiUri("/restores/" + id))
                            .json()
                            .at("/source/pointInTime")
                            .asString())
                    .isEqualTo(chosen.toString());
            JsonNode restore = JSON.readTree(browser.eval("window.sentRestore").asString());
            assertThat(restore.at("/source/pointInTime").asString()).isEqualTo(chosen.toString());
            assertThat(restore.at("/scope/keyFilters")).hasSize(2);
            assertThat(restore.at("/scope/keyFilters/0/sortKey/condition").asString())
                    .isEqualTo("GreaterThan");
            assertThat(restore.at("/scope/keyFilters/1/partitionKey/values/0").asString())
                    .isEqualTo("p2x");
            assertThat(restore.at("/scope/attributeFilters")).hasSize(2);
            assertThat(restore.at("/scope/attributeFilters/1/values/1").asString())
                    .isEqualTo("9");
            JsonNode tableOptions = restore.at("/destination/options");
            assertThat(tableOptions.at("/tableClass").asString()).isEqualTo("STANDARD_INFREQUENT_ACCESS");
            assertThat(tableOptions.at("/encryption/type").asString()).isEqualTo("AWS_MANAGED");
            assertThat(tableOptions.at("/streams").asString()).isEqualTo("NEW_IMAGE");
            assertThat(tableOptions.at("/timeToLive/attributeName").asString()).isEqualTo("expiresAt");
            assertThat(tableOptions.at("/deletionProtection").asBoolean()).isFalse();
            assertThat(tableOptions.at("/tags/team").asString()).isEqualTo("orders");
            assertThat(tableOptions.at("/tags/env").asString()).isEqualTo("test");
        }
    }

    @Test
    void showsAnItemsHistoryWithWhatEachVersionChangedAndRestoresOneVersionAfterItsDryRun() throws Exception {
        // Given a live table with a history in the vault, and a key written several times in it
        long t0 = (Instant.now().getEpochSecond() - 100) * HistoryFixtures.SECOND + 500_000;
        var history = new RandomHistory(61, RandomItems.Shape.simple(), 10, 120, t0, 90 * HistoryFixtures.SECOND);
        HistoryFixtures.liveTable(stack, "history-web", history, RandomItems.Shape.simple(), t0, 5);
        var counts = new TreeMap<String, List<RandomHistory.Write>>();
        history.writes()
                .forEach(w -> counts.computeIfAbsent(
                                ItemDigests.key(w.keys(), history.keyAttributes()), k -> new ArrayList<>())
                        .add(w));
        var writes = counts.values().stream()
                .filter(ws -> ws.size() >= 3
                        && ws.get(0).newImage() != null
                        && ws.get(1).newImage() != null)
                .findFirst()
                .orElseThrow();
        var key = writes.get(0).keys();
        String keyJson = DynamoJson.toJson(key);

        Path profile = RestoreStack.logDir().resolve("chromium-profile-history");
        try (var browser = new HeadlessChromium(stack.apiUri("/"), profile)) {
            browser.waitFor(
                    "document.querySelector('#sign-in') && document.querySelector('#sign-in').open",
                    Duration.ofSeconds(30));
            browser.eval("document.querySelector('#sign-in-value').value = '" + LocalApi.KEY
                    + "'; document.querySelector('#sign-in-btn').click()");
            browser.waitFor(
                    "document.querySelector('.table-link[data-table=\"history-web\"]')", Duration.ofSeconds(30));
            browser.eval("document.querySelector('.table-link[data-table=\"history-web\"]').click()");
            browser.waitFor("document.querySelector('#history-form')", Duration.ofSeconds(20));

            // When the person asks for the key's history
            browser.eval("document.querySelector('#history-key').value = " + JSON.writeValueAsString(keyJson)
                    + "; document.querySelector('#history-btn').click()");
            browser.waitFor(
                    "document.querySelectorAll('#history-versions li.version').length === " + writes.size(),
                    Duration.ofSeconds(20));

            // Then each write is a version, oldest first, of its kind, and the second names what changed
            JsonNode kinds = browser.eval(
                    "[...document.querySelectorAll('#history-versions li.version .kind')].map(k => k.textContent)");
            var expected = writes.stream()
                    .map(w -> w.newImage() == null ? "deleted" : w.oldImage() == null ? "created" : "overwritten")
                    .toList();
            assertThat(kinds).extracting(JsonNode::asString).containsExactlyElementsOf(expected);
            var changed = new TreeSet<String>();
            writes.get(0).newImage().forEach((name, value) -> {
                if (!value.equals(writes.get(1).newImage().get(name))) {
                    changed.add(name);
                }
            });
            writes.get(1).newImage().keySet().stream()
                    .filter(n -> !writes.get(0).newImage().containsKey(n))
                    .forEach(changed::add);
            JsonNode diff = browser.eval("[...document.querySelectorAll('#history-versions li.version')[1]"
                    + ".querySelectorAll('.diff code')].map(c => c.textContent)");
            assertThat(diff).extracting(JsonNode::asString).containsExactlyInAnyOrderElementsOf(changed);
            browser.eval("document.querySelector('#history-section').scrollIntoView()");
            browser.screenshot(RestoreStack.logDir().resolve("item-history.png"));

            // When the person restores the first version, dry run first, then for real
            browser.eval("document.querySelectorAll('#history-versions li.version')[0]"
                    + ".querySelector('.restore-version').click()");
            browser.waitFor("document.querySelector('#history-confirm')", Duration.ofSeconds(20));
            String dry = browser.eval("document.querySelector('#tasks tbody tr').dataset.restore")
                    .asString();
            browser.waitFor(
                    "document.querySelector('#tasks tbody tr[data-restore=\"" + dry
                            + "\"] .state').textContent === 'COMPLETED (dry run)'",
                    Duration.ofMinutes(2));
            browser.eval("document.querySelector('#history-confirm').click()");
            browser.waitFor(
                    "document.querySelector('#history-answer').textContent.startsWith('Restore ')",
                    Duration.ofSeconds(20));
            String id = browser.eval("document.querySelector('#tasks tbody tr').dataset.restore")
                    .asString();
            browser.waitFor(
                    "document.querySelector('#tasks tbody tr[data-restore=\"" + id
                            + "\"] .state').textContent === 'COMPLETED'",
                    Duration.ofMinutes(2));
        }

        // Then the key holds the first version's image again
        var item = stack.dynalite
                .client()
                .getItem(b -> b.tableName("history-web").key(key))
                .item();
        assertThat(ItemDigests.digest(item))
                .isEqualTo(ItemDigests.digest(writes.get(0).newImage()));
    }

    @Test
    void plotsTheTablesWritesMarksAMassDeleteAndOffersTheSecondBeforeItToRestore() throws Exception {
        // Given a live table with a history in the vault and a mass delete after it
        long t0 = (Instant.now().getEpochSecond() - 130) * HistoryFixtures.SECOND + 500_000;
        var history = new RandomHistory(71, RandomItems.Shape.simple(), 60, 150, t0, 90 * HistoryFixtures.SECOND);
        HistoryFixtures.liveTable(stack, "timeline-web", history, RandomItems.Shape.simple(), t0, 7);
        var deletes = HistoryFixtures.massDelete(stack, "timeline-web", history, t0);
        Instant before = Instant.ofEpochSecond(Math.floorDiv(deletes.get(0).micros(), HistoryFixtures.SECOND) - 1);

        Path profile = RestoreStack.logDir().resolve("chromium-profile-timeline");
        try (var browser = new HeadlessChromium(stack.apiUri("/"), profile)) {
            browser.waitFor(
                    "document.querySelector('#sign-in') && document.querySelector('#sign-in').open",
                    Duration.ofSeconds(30));
            browser.eval("document.querySelector('#sign-in-value').value = '" + LocalApi.KEY
                    + "'; document.querySelector('#sign-in-btn').click()");
            browser.waitFor(
                    "document.querySelector('.table-link[data-table=\"timeline-web\"]')", Duration.ofSeconds(30));
            browser.eval("document.querySelector('.table-link[data-table=\"timeline-web\"]').click()");

            // When the person shows the last 15 minutes by the second
            browser.waitFor("document.querySelector('#activity-chart')", Duration.ofSeconds(30));
            browser.eval("document.querySelector('#activity-range').value = 'PT15M|SECOND';"
                    + " document.querySelector('#activity-range').dispatchEvent(new Event('change'))");
            browser.waitFor(
                    "document.querySelectorAll('#activity-chart .step-hit').length >= 900"
                            + " && document.querySelector('#activity-chart .flag')",
                    Duration.ofSeconds(30));

            // Then the chart has a bar of deletes and one marked run, whose restore point is the second before it
            assertThat(browser.eval("document.querySelectorAll('#activity-chart .bar.deletes').length")
                            .asInt())
                    .isPositive();
            assertThat(browser.eval("document.querySelectorAll('.activity-flag').length")
                            .asInt())
                    .isEqualTo(1);
            assertThat(browser.eval("document.querySelector('.activity-flag').textContent")
                            .asString())
                    .contains("deletes")
                    .contains(before.toString());
            browser.eval("document.querySelector('#activity-section').scrollIntoView()");
            browser.screenshot(RestoreStack.logDir().resolve("activity-timeline.png"));

            // When the person takes the suggested second
            browser.eval("document.querySelector('.activity-flag .use-second').click()");
            browser.waitFor(
                    "document.querySelector('#point-in-time').value === '" + before + "'", Duration.ofSeconds(10));

            // Then the dialog restores to it; and a click on a step picks the second before that step
            assertThat(browser.eval("document.querySelector('#source-kind').value")
                            .asString())
                    .isEqualTo("pointInTime");
            String step = Instant.ofEpochSecond(before.getEpochSecond() - 20).toString();
            browser.eval("document.querySelector('#activity-chart .step-hit[data-start=\"" + step
                    + "\"]').dispatchEvent(new MouseEvent('click', {bubbles: true}))");
            browser.waitFor(
                    "document.querySelector('#point-in-time').value === '"
                            + Instant.ofEpochSecond(before.getEpochSecond() - 21) + "'",
                    Duration.ofSeconds(10));
        }
    }

    @Test
    void showsTheTablesDrillScheduleAndItsLastDrillsOutcome() throws Exception {
        // Given a table with drills in its policy, and a drill's restore of its backup that completed
        var source = BackupFixtures.createSourceTable(stack.dynalite.client(), "drill-web");
        BackupFixtures.writeItems(stack, source, "b-drill", items.items(200), 100, List.of(), null, null);
        var put = Http.put(stack.apiUri("/tables/drill-web/protection"), """
                {"backups": {"method": "SCAN", "every": "PT1H", "retention": "P7D"},
                 "changeLog": {"method": "NONE"}, "drills": {"every": "P1D", "writeUnits": 100}}""");
        assertThat(put.status()).as(put.body()).isEqualTo(200);
        stack.restoreAndAwaitCompletion("""
                {"restoreId": "drill-20261207T000000Z-web", "source": {"table": "drill-web", "backupId": "b-drill"},
                 "destination": {"type": "NEW_TABLE", "tableName": "drill-web-drill-20261207t000000z"}}""");

        Path profile = RestoreStack.logDir().resolve("chromium-profile-drill");
        try (var browser = new HeadlessChromium(stack.apiUri("/"), profile)) {
            // When the person opens the table
            signInAndOpen(browser, "drill-web");

            // Then its view says how often drills run and that the last one passed
            browser.waitFor(
                    "!document.querySelector('#drill-status').hidden"
                            + " && document.querySelector('#drill-status').textContent.includes('Last drill')",
                    Duration.ofSeconds(30));
            assertThat(browser.eval("document.querySelector('#drill-status').textContent")
                            .asString())
                    .contains("every P1D")
                    .contains("Last drill passed")
                    .contains("drill-20261207T000000Z-web");
            assertThat(browser.eval("document.querySelector('#drill-status').className")
                            .asString())
                    .contains("drill-PASSED");
        }
    }

    /** Signs in with the local API key and opens {@code table} from the list. */
    static void signInAndOpen(HeadlessChromium browser, String table) throws Exception {
        browser.waitFor(
                "document.querySelector('#sign-in') && document.querySelector('#sign-in').open",
                Duration.ofSeconds(30));
        browser.eval("document.querySelector('#sign-in-value').value = '" + LocalApi.KEY
                + "'; document.querySelector('#sign-in-btn').click()");
        browser.waitFor("document.querySelector('.table-link[data-table=\"" + table + "\"]')", Duration.ofSeconds(30));
        browser.eval("document.querySelector('.table-link[data-table=\"" + table + "\"]').click()");
    }

    static String hour(Instant t) {
        return String.valueOf(t.atZone(ZoneOffset.UTC).getHour());
    }

    static String minute(Instant t) {
        return String.valueOf(t.atZone(ZoneOffset.UTC).getMinute());
    }
}
