#include "live/list_paging.h"

#include <array>

namespace chaintwin::live {
namespace {

constexpr std::string_view kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
constexpr std::string_view kTokenVersion = "chaintwin/v1";

std::string base64url(std::string_view in) {
  std::string out;
  uint32_t buffer = 0;
  int bits = 0;
  for (unsigned char c : in) {
    buffer = (buffer << 8) | c;
    bits += 8;
    while (bits >= 6) {
      bits -= 6;
      out += kAlphabet[(buffer >> bits) & 63];
    }
  }
  if (bits > 0) out += kAlphabet[(buffer << (6 - bits)) & 63];
  return out;
}

model::Result<std::string> unbase64url(std::string_view in) {
  std::array<int, 256> value{};
  value.fill(-1);
  for (size_t i = 0; i < kAlphabet.size(); ++i) value[static_cast<unsigned char>(kAlphabet[i])] = static_cast<int>(i);
  std::string out;
  uint32_t buffer = 0;
  int bits = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    const int v = value[static_cast<unsigned char>(in[i])];
    if (v < 0) return model::err("illegal base64 data at input byte " + std::to_string(i));
    buffer = (buffer << 6) | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((buffer >> bits) & 255);
    }
  }
  // Go's RawURLEncoding refuses a lone trailing character.
  if (in.size() % 4 == 1)
    return model::err("illegal base64 data at input byte " + std::to_string(in.empty() ? 0 : in.size() - 1));
  return out;
}

model::Error invalid_key(const std::string& why) { return model::err("continue key is not valid: " + why); }

}  // namespace

std::string encode_continue(const ContinueToken& token) {
  const nlohmann::json j = {{"v", kTokenVersion}, {"rv", token.resource_version}, {"after", {token.after.first, token.after.second}}};
  return base64url(j.dump());
}

model::Result<ContinueToken> decode_continue(std::string_view text) {
  auto raw = unbase64url(text);
  if (!raw) return invalid_key(raw.error());
  const nlohmann::json j = nlohmann::json::parse(raw.value(), nullptr, false);
  if (j.is_discarded() || !j.is_object()) return invalid_key("not a JSON object");
  const std::string version = j.contains("v") && j["v"].is_string() ? j["v"].get<std::string>() : "";
  if (version != kTokenVersion) return invalid_key("server does not recognize this encoded version \"" + version + "\"");
  if (!j.contains("rv") || !j["rv"].is_number_integer() || j["rv"].get<int64_t>() <= 0)
    return invalid_key("incorrect encoded start resourceVersion (version " + std::string(kTokenVersion) + ")");
  const auto& after = j.contains("after") ? j["after"] : nlohmann::json();
  if (!after.is_array() || after.size() != 2 || !after[0].is_string() || !after[1].is_string() ||
      after[1].get<std::string>().empty())
    return invalid_key("encoded start key empty (version " + std::string(kTokenVersion) + ")");
  return ContinueToken{j["rv"].get<int64_t>(), {after[0].get<std::string>(), after[1].get<std::string>()}};
}

Page take_page(const std::vector<nlohmann::json>& objects, const std::function<bool(const nlohmann::json&)>& selected,
               const std::optional<ObjectKey>& after, int64_t limit) {
  Page page;
  for (const nlohmann::json& o : objects) {
    const auto& meta = o.at("metadata");
    ObjectKey key{meta.value("namespace", ""), meta.value("name", "")};
    if (after && key <= *after) continue;
    if (!selected(o)) continue;
    if (limit > 0 && static_cast<int64_t>(page.items.size()) >= limit) {
      ++page.remaining;
      continue;
    }
    page.items.push_back(o);
    page.last = std::move(key);
  }
  if (page.remaining == 0) page.last.reset();
  return page;
}

}  // namespace chaintwin::live
