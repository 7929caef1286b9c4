// set_condition (model/kueue/kueue_objects.h): the overload that takes the fields must do what the
// one that takes a whole Condition does, for every way a condition list can stand.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "model/kueue/kueue_objects.h"

using namespace chaintwin::model;

TEST_CASE("setting a condition from its fields changes what setting the whole condition changes", "[kueue][conditions]") {
  const std::vector<Condition> before = {
      {"QuotaReserved", "True", "QuotaReserved", "Quota reserved in ClusterQueue cq", 0},
      {"Admitted", "False", "UnsatisfiedChecks", "The workload has not all checks ready", 3},
  };
  struct Row {
    const char* what;
    std::vector<Condition> start;
    Condition set;
  };
  const std::vector<Row> rows = {
      {"the same condition", before, before[0]},
      {"another status", before, {"QuotaReserved", "False", "QuotaReserved", "Quota reserved in ClusterQueue cq", 0}},
      {"another reason", before, {"QuotaReserved", "True", "Pending", "Quota reserved in ClusterQueue cq", 0}},
      {"another message", before, {"QuotaReserved", "True", "QuotaReserved", "Quota reserved in ClusterQueue other", 0}},
      {"the same fields over an observed generation", before,
       {"Admitted", "False", "UnsatisfiedChecks", "The workload has not all checks ready", 0}},
      {"a condition of a new type", before, {"Finished", "True", "Succeeded", "The workload finished", 0}},
      {"an empty list", {}, {"Evicted", "True", "Preempted", "", 0}},
  };
  for (const auto& row : rows) {
    INFO(row.what);
    std::vector<Condition> whole = row.start, fields = row.start;
    const bool changed_whole = set_condition(whole, row.set);
    const bool changed_fields =
        set_condition(fields, row.set.type, row.set.status == "True", row.set.reason, row.set.message);
    CHECK(changed_fields == changed_whole);
    CHECK(fields == whole);
  }
}
