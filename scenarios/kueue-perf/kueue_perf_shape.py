# What Kueue's scheduler performance shapes share (test/performance/scheduler generator configs):
# 5 implicit cohorts of 6 ClusterQueues, each with 20 cpu of nominal quota, borrowingLimit 100,
# reclaimWithinCohort Any, withinClusterQueue LowerPriority, a namespace and a LocalQueue `lq`.
# Used by make_baseline.py and make_tas.py.
COHORTS, PER_COHORT = 5, 6


def namespaces():
    return [f"ns-{c}-{q}" for c in range(COHORTS) for q in range(PER_COHORT)]


def cluster_queues(w, flavor):
    """Writes each ClusterQueue and its LocalQueue as items of `cluster.objects`."""
    for c in range(COHORTS):
        for q in range(PER_COHORT):
            name = f"cq-{c}-{q}"
            w("    - apiVersion: kueue.x-k8s.io/v1beta2")
            w("      kind: ClusterQueue")
            w(f"      metadata: {{name: {name}}}")
            w("      spec:")
            w(f"        cohortName: cohort-{c}")
            w("        namespaceSelector: {}")
            w("        preemption: {reclaimWithinCohort: Any, withinClusterQueue: LowerPriority}")
            w("        resourceGroups:")
            w("          - coveredResources: [cpu]")
            w(f"            flavors: [{{name: {flavor}, resources: [{{name: cpu, nominalQuota: 20, borrowingLimit: 100}}]}}]")
            w(f"    - {{apiVersion: kueue.x-k8s.io/v1beta2, kind: LocalQueue, metadata: {{name: lq, namespace: ns-{c}-{q}}}, spec: {{clusterQueue: {name}}}}}")


def queues():
    """(cohort, queue) pairs in the order the generators are written."""
    return [(c, q) for c in range(COHORTS) for q in range(PER_COHORT)]
