package org.adaptivecompress.hadoop;

import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.MiniDFSCluster;

/** The configuration of a {@link MiniDFSCluster} that keeps its files under a directory and listens on 127.0.0.1 only. */
final class LoopbackDfs {

    private LoopbackDfs() {}

    /** An HDFS configuration with {@code base} as the cluster's directory and every bind host 127.0.0.1, replication 1. */
    static Configuration configuration(Path base) {
        Configuration conf = new HdfsConfiguration();
        conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, base.toString());
        conf.set("hadoop.tmp.dir", base.resolve("hadoop-tmp").toString());
        // MiniDFSCluster binds its RPC and HTTP ports to 127.0.0.1; pin the remaining bind hosts too.
        for (String key : new String[] {"dfs.namenode.rpc-bind-host", "dfs.namenode.servicerpc-bind-host",
            "dfs.namenode.http-bind-host", "dfs.namenode.https-bind-host", "dfs.namenode.lifeline.rpc-bind-host",
            "dfs.datanode.hostname"}) {
            conf.set(key, "127.0.0.1");
        }
        conf.setInt("dfs.replication", 1);
        return conf;
    }
}
