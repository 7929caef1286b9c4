#include <catch2/catch.hpp>

#include "viz/chain_columns.h"

using namespace chaintwin::viz;

namespace {
const std::vector<ChainEdgeView> kEdges = {
    {"Node/a", "contributes to", "ResourceFlavor/f1"},
    {"Node/b", "contributes to", "ResourceFlavor/f1"},
    {"Node/c", "contributes to", "ResourceFlavor/f2"},
    {"ResourceFlavor/f1", "fills the quota of", "ClusterQueue/q1"},
    {"ResourceFlavor/f2", "fills the quota of", "ClusterQueue/q2"},
    {"ClusterQueue/q1", "is entered through", "LocalQueue/ns/lq1"},
    {"ClusterQueue/q2", "is entered through", "LocalQueue/ns/lq2"},
    {"InstanceType/q1", "backs", "ClusterQueue/q1"},
};
}  // namespace

TEST_CASE("the chain graph of a queue or a Node reads Node, ResourceFlavor, ClusterQueue, LocalQueue", "[viz][chain]") {
  struct Row {
    const char* queue;
    const char* node;
    std::array<std::vector<std::string>, 4> want;
    size_t links;
  };
  const Row rows[] = {
      {"q1", "", {{{"a", "b"}, {"f1"}, {"q1"}, {"ns/lq1"}}}, 4},
      {"", "c", {{{"c"}, {"f2"}, {"q2"}, {"ns/lq2"}}}, 3},
      {"q1", "c", {{{"a", "b"}, {"f1"}, {"q1"}, {"ns/lq1"}}}, 4},  // the queue wins
      {"", "", {{{"a", "b"}, {"f1"}, {"q1"}, {"ns/lq1"}}}, 4},      // no selection: the first queue
      {"nope", "", {{{}, {}, {"nope"}, {}}}, 0},
  };
  for (const auto& row : rows) {
    INFO("queue '" << row.queue << "' node '" << row.node << "'");
    const ChainColumns cc = chain_columns(kEdges, row.queue, row.node);
    CHECK(cc.columns == row.want);
    CHECK(cc.links.size() == row.links);
  }
  // The links join the right rows: a → f1 and b → f1.
  const ChainColumns q1 = chain_columns(kEdges, "q1", "");
  CHECK(q1.links[0] == std::pair{std::pair{0, 0}, std::pair{1, 0}});
  CHECK(q1.links[1] == std::pair{std::pair{0, 1}, std::pair{1, 0}});
}
