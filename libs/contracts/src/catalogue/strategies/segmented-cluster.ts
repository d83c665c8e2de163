import type { Locale } from '../../locale';
import { defineStrategy, type StrategyTexts } from '../strategy-entry';
import { segmented } from './segmented';

/** What the cluster changes in segmented's texts: its own title and description, a sentence more to three texts, the first step's read. */
interface OnTheCluster extends Pick<StrategyTexts, 'title' | 'description' | 'guarantee' | 'pitfall' | 'symptom'> {
  /** Put between segmented's sentence and the cluster's (Chinese sets sentences without a space). */
  space: string;
  firstStep: { read: string; onTheCluster: string };
}

function onTheCluster(texts: StrategyTexts, cluster: OnTheCluster): StrategyTexts {
  const more = (segmentedText: string, clusterText: string) => segmentedText + cluster.space + clusterText;
  return {
    ...texts,
    title: cluster.title,
    description: cluster.description,
    guarantee: more(texts.guarantee, cluster.guarantee),
    pitfall: more(texts.pitfall, cluster.pitfall),
    symptom: more(texts.symptom, cluster.symptom),
    steps: texts.steps.map((step, i) => (i === 0 ? step.replace(cluster.firstStep.read, cluster.firstStep.onTheCluster) : step)),
  };
}

const CLUSTER: Record<Locale, OnTheCluster> = {
  en: {
    space: ' ',
    title: 'Segmented stock on a Redis Cluster',
    description:
      "The segmented strategy with its segments on a three-master Redis Cluster (REDIS_CLUSTER_NODES) instead of the lab's one Redis. Each segment's stock, lock and moves keys share one hash tag, {<run>:<product>:seg<i>.<n>}, so they sit in one slot and the segment's scripts may touch them together; the tags are chosen so that segment i's slot belongs to master i mod 3, so the segments' locks and stock writes go to different servers. The orders that MGET the segments on one Redis GET them one by one here (a command may not span slots).",
    guarantee: 'Each segment lives on one master, so its lock and its stock are as consistent as on a single Redis.',
    pitfall: "On the cluster, a command or script over two segments' keys is refused (CROSSSLOT): nothing may read or write several segments atomically. No replicas here: a master that dies takes its segments with it.",
    symptom: 'In the bench it is the segmented row with its segments on three servers (on one machine the three share its cores).',
    firstStep: { read: 'MGET every segment', onTheCluster: 'GET each segment (one command per slot)' },
  },
  'zh-CN': {
    space: '',
    title: 'Redis Cluster 上的分段库存',
    description:
      '分段策略，只是分段放在一个三主节点的 Redis Cluster（REDIS_CLUSTER_NODES）上，而不是实验室的那一个 Redis。每个分段的库存、锁和 moves 这几个 key 共用一个 hash tag {<run>:<product>:seg<i>.<n>}，所以它们落在同一个 slot，分段的脚本可以同时操作它们；hash tag 经过挑选，让分段 i 的 slot 属于主节点 i mod 3，于是各分段的锁和库存写入会分散到不同的服务器上。在单个 Redis 上用 MGET 读取各分段的订单，在这里改为逐个 GET（一条命令不能跨 slot）。',
    guarantee: '每个分段只在一个主节点上，所以它的锁和库存与在单个 Redis 上一样一致。',
    pitfall: '在集群上，涉及两个分段 key 的命令或脚本会被拒绝（CROSSSLOT）：无法原子地读写多个分段。这里没有副本：主节点挂掉，它上面的分段也随之丢失。',
    symptom: '在基准测试中，它就是分段放在三台服务器上的那一行 segmented（在单机上三者共享这台机器的 CPU 核）。',
    firstStep: { read: 'MGET 所有分段', onTheCluster: '逐个 GET 各分段（每个 slot 一条命令）' },
  },
};

/** segmented, with its segments spread over the masters of a Redis Cluster. */
export const segmentedCluster = defineStrategy({
  ...segmented,
  name: 'segmented-cluster',
  needs: ['redis-cluster'],
  texts: { en: onTheCluster(segmented.texts.en, CLUSTER.en), 'zh-CN': onTheCluster(segmented.texts['zh-CN'], CLUSTER['zh-CN']) },
});
