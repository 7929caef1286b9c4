// NodeFeature JSON encoding and path-aware decoding.
#include "model/api/node_feature_codec.h"

#include "model/api/codec_support.h"
#include "model/api/object_meta_codec.h"

namespace chaintwin::model {

using codec::json;

json encode_node_feature(const NodeFeature& f) {
  return {{"apiVersion", kNfdApiVersion},
          {"kind", "NodeFeature"},
          {"metadata", encode_object_meta(f.metadata)},
          {"spec", {{"features", json::object()}, {"labels", f.labels}}}};
}

Result<NodeFeature> decode_node_feature(const json& doc) {
  try {
    codec::expect_object(doc, "");
    codec::expect_type_meta(doc, {kNfdApiVersion}, "NodeFeature");
    NodeFeature f;
    if (const json* m = codec::find_member(doc, "metadata")) f.metadata = codec::decode_object_meta_at(*m, "metadata");
    if (const json* spec = codec::find_member(doc, "spec")) {
      codec::expect_object(*spec, "spec");
      f.labels = codec::read_string_map(*spec, "labels", "spec");
    }
    return f;
  } catch (const codec::DecodeError& e) {
    return err(e.what());
  }
}

}  // namespace chaintwin::model
