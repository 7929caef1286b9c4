// Paging of a list (`limit` and `continue`), as kube-apiserver pages: items in (namespace, name)
// order; a page holds at most `limit` selected items; when more selected items remain the list
// metadata carries a continue token naming the resourceVersion of the first page and the last key
// returned, and — only when no selector was given, as kube — remainingItemCount. Continuation
// pages are read at the token's resourceVersion (ServedObjects::list_at), so a paged list is one
// consistent snapshot. The token is base64url (no padding) of a small JSON object; one this server
// did not write is refused ("continue key is not valid: ..."). Called by KubeApiServer; pure.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/result.h"

namespace chaintwin::live {

using ObjectKey = std::pair<std::string, std::string>;  // (namespace, name)

struct ContinueToken {
  int64_t resource_version = 0;  // the snapshot the pages are read at
  ObjectKey after;               // the last key already returned
};

std::string encode_continue(const ContinueToken& token);
// The token, or why it is not one: "continue key is not valid: ...".
model::Result<ContinueToken> decode_continue(std::string_view text);

struct Page {
  std::vector<nlohmann::json> items;
  std::optional<ObjectKey> last;  // set when selected items remain after this page
  int64_t remaining = 0;          // how many selected items remain after this page
};

// The page of `objects` (in (namespace, name) order) after `after` (from the start when unset):
// up to `limit` objects `selected` accepts (all of them when limit <= 0, as kube ignores a limit
// that is not positive).
Page take_page(const std::vector<nlohmann::json>& objects, const std::function<bool(const nlohmann::json&)>& selected,
               const std::optional<ObjectKey>& after, int64_t limit);

}  // namespace chaintwin::live
