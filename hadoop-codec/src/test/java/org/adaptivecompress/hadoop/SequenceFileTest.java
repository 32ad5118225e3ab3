package org.adaptivecompress.hadoop;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.io.SequenceFile.CompressionType;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.compress.CodecPool;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** SequenceFile finishes and resets the codec stream around every record (RECORD) or block (BLOCK). */
class SequenceFileTest {

    @TempDir
    Path tmp;

    @ParameterizedTest
    @EnumSource(value = CompressionType.class, names = {"RECORD", "BLOCK"})
    void writesAndReadsBack(CompressionType type) throws Exception {
        Configuration conf = new Configuration();
        conf.setInt("io.seqfile.compress.blocksize", 20_000); // several SequenceFile blocks
        AdaptiveCodec codec = TestFiles.codec(conf);
        int compressors = CodecPool.getLeasedCompressorsCount(codec);
        int decompressors = CodecPool.getLeasedDecompressorsCount(codec);
        org.apache.hadoop.fs.Path file = TestFiles.hadoopPath(tmp.resolve("data-" + type + ".seq"));
        int count = 2000;
        try (SequenceFile.Writer w = SequenceFile.createWriter(conf, SequenceFile.Writer.file(file),
                SequenceFile.Writer.keyClass(IntWritable.class), SequenceFile.Writer.valueClass(Text.class),
                SequenceFile.Writer.compression(type, codec))) {
            for (int i = 0; i < count; i++) {
                w.append(new IntWritable(i), new Text(value(i)));
            }
        }
        try (SequenceFile.Reader r = new SequenceFile.Reader(conf, SequenceFile.Reader.file(file))) {
            assertThat(r.getCompressionCodec()).isInstanceOf(AdaptiveCodec.class);
            assertThat(r.getCompressionType()).isEqualTo(type);
            IntWritable key = new IntWritable();
            Text value = new Text();
            int i = 0;
            while (r.next(key, value)) {
                assertThat(key.get()).isEqualTo(i);
                assertThat(value.toString()).isEqualTo(value(i));
                i++;
            }
            assertThat(i).isEqualTo(count);
        }
        assertThat(CodecPool.getLeasedCompressorsCount(codec)).isEqualTo(compressors);
        assertThat(CodecPool.getLeasedDecompressorsCount(codec)).isEqualTo(decompressors);
    }

    private static String value(int i) {
        return "value-" + i + "-" + "x".repeat(i % 50);
    }
}
