package io.dynarestore.core.vault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.amazon.ion.IonWriter;
import com.amazon.ion.system.IonTextWriterBuilder;
import io.dynarestore.testkit.IonItems;
import io.dynarestore.testkit.ItemDigests;
import io.dynarestore.testkit.RandomItems;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class IonLinesTest {

    static byte[] gzipIon(Consumer<IonWriter> lines) throws IOException {
        var out = new ByteArrayOutputStream();
        try (var gz = new GZIPOutputStream(out);
                var text = new OutputStreamWriter(gz, StandardCharsets.UTF_8);
                IonWriter w = IonTextWriterBuilder.standard().build(text)) {
            lines.accept(w);
        }
        return out.toByteArray();
    }

    static byte[] gzipText(String text) throws IOException {
        var out = new ByteArrayOutputStream();
        try (var gz = new GZIPOutputStream(out)) {
            gz.write(text.getBytes(StandardCharsets.UTF_8));
        }
        return out.toByteArray();
    }

    static List<ExportLine> read(byte[] file, KeyPrefilter prefilter) {
        var lines = new ArrayList<ExportLine>();
        try (var reader = DataFileReader.selective("data/x.ion.gz", new ByteArrayInputStream(file), null, prefilter)) {
            for (ExportLine l; (l = reader.next()) != null; ) {
                lines.add(l);
            }
        }
        return lines;
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void everyAttributeTypeOfRandomItemsComesBackFromIonAsItWasWritten(long seed) throws IOException {
        // Given 2,000 random items of every type (sets, nested lists and maps, binary, null, numbers of
        // every scale) written as an ION export's lines
        var items = new RandomItems(seed, RandomItems.Shape.simple()).items(2_000);
        byte[] file = gzipIon(w -> items.forEach(i -> IonItems.writeLine(w, i, null, null, null, null)));

        // When the file is read
        var lines = read(file, null);

        // Then each item is the one written, value for value and type for type
        assertThat(lines).hasSize(items.size());
        for (int i = 0; i < items.size(); i++) {
            assertThat(ItemDigests.canonical(lines.get(i).item())).isEqualTo(ItemDigests.canonical(items.get(i)));
        }
    }

    @Test
    void readsTheExampleOfAwssDocumentationWithItsNumbersInPlainDigits() throws IOException {
        // Given the item of AWS's example of an ION export, its numbers written as ION decimals
        byte[] file = gzipText("$ion_1_0 {Item:{Authors:$dynamodb_SS::[\"Author1\",\"Author2\"],"
                + "Dimensions:\"8.5 x 11.0 x 1.5\",ISBN:\"333-3333333333\",Id:103.,InPublication:false,"
                + "PageCount:6d2,Price:2d3,ProductCategory:\"Book\",Title:\"Book 103 Title\"}}\n");

        // When it is read
        var item = read(file, null).get(0).item();

        // Then each attribute has DynamoDB's type, and the numbers are as DynamoDB writes them
        assertThat(item.get("Authors").ss()).containsExactly("Author1", "Author2");
        assertThat(item.get("Id").n()).isEqualTo("103");
        assertThat(item.get("PageCount").n()).isEqualTo("600");
        assertThat(item.get("Price").n()).isEqualTo("2000");
        assertThat(item.get("InPublication").bool()).isFalse();
        assertThat(item.get("Dimensions").s()).isEqualTo("8.5 x 11.0 x 1.5");
    }

    @Test
    void readsAnIncrementalExportsChangesWithTheirWriteTimes() throws IOException {
        // Given a change that overwrites an item and one that deletes another
        var items = new RandomItems(9, RandomItems.Shape.simple());
        var a = items.item(1);
        var a2 = items.item(1, 1);
        var b = items.item(2);
        byte[] file = gzipIon(w -> {
            IonItems.writeLine(w, null, key(a), a, a2, 1_700_000_000_123_456L);
            IonItems.writeLine(w, null, key(b), b, null, 1_700_000_001_000_000L);
        });

        // When the file is read
        var lines = read(file, null);

        // Then the overwrite and the delete come back with their keys, images and times
        assertThat(lines.get(0).writeTimestampMicros()).isEqualTo(1_700_000_000_123_456L);
        assertThat(ItemDigests.canonical(lines.get(0).oldImage())).isEqualTo(ItemDigests.canonical(a));
        assertThat(ItemDigests.canonical(lines.get(0).newImage())).isEqualTo(ItemDigests.canonical(a2));
        assertThat(lines.get(1).isDelete()).isTrue();
        assertThat(ItemDigests.canonical(lines.get(1).keys())).isEqualTo(ItemDigests.canonical(key(b)));
    }

    @Test
    void aSelectiveReaderPassesOverTheItemsItsPrefilterDoesNotWant() throws IOException {
        // Given 500 items
        var items = new RandomItems(4, RandomItems.Shape.simple()).items(500);
        byte[] file = gzipIon(w -> items.forEach(i -> IonItems.writeLine(w, i, null, null, null, null)));
        var wanted = key(items.get(7));

        // When a reader that wants one key reads it
        List<ExportLine> lines;
        long passedOver;
        try (var reader = DataFileReader.selective(
                "data/x.ion.gz",
                new ByteArrayInputStream(file),
                null,
                KeyPrefilter.ofItems(
                        List.of("pk", "sk"), k -> ItemDigests.canonical(k).equals(ItemDigests.canonical(wanted))))) {
            lines = new ArrayList<>();
            for (ExportLine l; (l = reader.next()) != null; ) {
                lines.add(l);
            }
            passedOver = reader.passedOver();
        }

        // Then it returns that item alone, having counted the others as passed over
        assertThat(lines).hasSize(1);
        assertThat(ItemDigests.canonical(lines.get(0).item())).isEqualTo(ItemDigests.canonical(items.get(7)));
        assertThat(passedOver).isEqualTo(499);
    }

    @Test
    void aFileThatIsNotAnIonExportIsCorruptNamingTheFileAndValue() throws IOException {
        byte[] notStructs = gzipText("$ion_1_0 {Item:{pk:\"a\"}} 42\n");
        byte[] setOfMixedTypes = gzipText("$ion_1_0 {Item:{pk:\"a\",s:$dynamodb_SS::[\"x\",1.]}}\n");

        assertThatThrownBy(() -> read(notStructs, null))
                .isInstanceOf(CorruptDataFileException.class)
                .hasMessageContaining("data/x.ion.gz value 2");
        assertThatThrownBy(() -> read(setOfMixedTypes, null))
                .isInstanceOf(CorruptDataFileException.class)
                .hasMessageContaining("$dynamodb_SS");
    }

    static Map<String, AttributeValue> key(Map<String, AttributeValue> item) {
        return Map.of("pk", item.get("pk"), "sk", item.get("sk"));
    }
}
