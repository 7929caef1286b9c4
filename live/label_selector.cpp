#include "live/label_selector.h"

#include <algorithm>
#include <optional>
#include <set>

#include "live/go_strconv.h"
#include "live/object_validation.h"
#include "model/api/k8s_validation.h"

namespace chaintwin::live {
namespace {

using Op = LabelRequirement::Op;

enum class Tok { kEnd, kIdentifier, kComma, kNot, kEquals, kDoubleEquals, kNotEquals, kIn, kNotIn, kOpen, kClose, kGreater, kLess };

struct Token {
  Tok tok;
  std::string text;
};

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
bool is_symbol(char c) { return c == '=' || c == '!' || c == '(' || c == ')' || c == ',' || c == '>' || c == '<'; }

std::optional<Tok> symbol(std::string_view s) {
  if (s == "=") return Tok::kEquals;
  if (s == "==") return Tok::kDoubleEquals;
  if (s == "!=") return Tok::kNotEquals;
  if (s == "!") return Tok::kNot;
  if (s == "(") return Tok::kOpen;
  if (s == ")") return Tok::kClose;
  if (s == ",") return Tok::kComma;
  if (s == ">") return Tok::kGreater;
  if (s == "<") return Tok::kLess;
  return std::nullopt;
}

// Words run to the next symbol or blank; symbols are the longest run that is still an operator.
std::vector<Token> lex(std::string_view s) {
  std::vector<Token> out;
  size_t i = 0;
  while (true) {
    while (i < s.size() && is_space(s[i])) ++i;
    if (i == s.size()) break;
    if (is_symbol(s[i])) {
      size_t n = 1;
      while (i + n < s.size() && is_symbol(s[i + n]) && symbol(s.substr(i, n + 1))) ++n;
      const std::string text(s.substr(i, n));
      out.push_back({*symbol(text), text});
      i += n;
      continue;
    }
    const size_t start = i;
    while (i < s.size() && !is_symbol(s[i]) && !is_space(s[i])) ++i;
    const std::string word(s.substr(start, i - start));
    out.push_back({word == "in" ? Tok::kIn : word == "notin" ? Tok::kNotIn : Tok::kIdentifier, word});
  }
  out.push_back({Tok::kEnd, ""});
  return out;
}

class Parser {
 public:
  explicit Parser(std::string_view text) : items_(lex(text)) {}

  model::Result<LabelSelector> parse() {
    LabelSelector out;
    while (true) {
      const Token& t = peek();
      if (t.tok == Tok::kEnd) break;
      if (t.tok != Tok::kIdentifier && t.tok != Tok::kNot)
        return model::err("found '" + t.text + "', expected: !, identifier, or 'end of string'");
      auto r = requirement();
      if (!r) return model::err("unable to parse requirement: " + r.error());
      out.requirements.push_back(std::move(r).value());
      const Token next = take();
      if (next.tok == Tok::kEnd) break;
      if (next.tok != Tok::kComma) return model::err("found '" + next.text + "', expected: ',' or 'end of string'");
      if (peek().tok != Tok::kIdentifier && peek().tok != Tok::kNot)
        return model::err("found '" + peek().text + "', expected: identifier after ','");
    }
    std::stable_sort(out.requirements.begin(), out.requirements.end(),
                     [](const LabelRequirement& a, const LabelRequirement& b) { return a.key < b.key; });
    return out;
  }

 private:
  // In value position the words `in` and `notin` are plain identifiers.
  const Token& peek() const { return items_[std::min(at_, items_.size() - 1)]; }
  Token take() {
    Token t = peek();
    if (at_ < items_.size() - 1) ++at_;
    return t;
  }
  static bool value_word(const Token& t) { return t.tok == Tok::kIdentifier || t.tok == Tok::kIn || t.tok == Tok::kNotIn; }

  model::Result<LabelRequirement> requirement() {
    LabelRequirement r;
    Token t = take();
    bool negated = false;
    if (t.tok == Tok::kNot) {
      negated = true;
      t = take();
    }
    if (!value_word(t)) return model::err("found '" + t.text + "', expected: identifier");
    if (const std::string why = model::label_key_problem(t.text); !why.empty())
      return model::err("<nil>: Invalid value: " + go_quote(t.text) + ": " + why);
    r.key = t.text;
    // `!k` ends the requirement whatever follows (what follows must then be `,` or the end).
    if (negated || peek().tok == Tok::kEnd || peek().tok == Tok::kComma) {
      r.op = negated ? Op::kDoesNotExist : Op::kExists;
      return r;
    }
    const Token op = take();
    switch (op.tok) {
      case Tok::kIn: r.op = Op::kIn; break;
      case Tok::kNotIn: r.op = Op::kNotIn; break;
      case Tok::kEquals: r.op = Op::kEquals; break;
      case Tok::kDoubleEquals: r.op = Op::kDoubleEquals; break;
      case Tok::kNotEquals: r.op = Op::kNotEquals; break;
      case Tok::kGreater: r.op = Op::kGreaterThan; break;
      case Tok::kLess: r.op = Op::kLessThan; break;
      default: return model::err("found '" + op.text + "', expected: in, notin, =, ==, !=, gt, lt");
    }
    std::set<std::string> values;
    if (r.op == Op::kIn || r.op == Op::kNotIn) {
      auto v = set_values();
      if (!v) return model::err(v.error());
      values = std::move(v).value();
    } else {
      const Token& next = peek();
      if (next.tok == Tok::kEnd || next.tok == Tok::kComma) {
        values.insert("");
      } else {
        const Token v = take();
        if (!value_word(v)) return model::err("found '" + v.text + "', expected: identifier");
        values.insert(v.text);
      }
    }
    r.values.assign(values.begin(), values.end());
    return check(std::move(r));
  }

  // `( a, b )`; empty members are the empty value, as kube reads `(a,,b)` and `()`.
  model::Result<std::set<std::string>> set_values() {
    const Token open = take();
    if (open.tok != Tok::kOpen) return model::err("found '" + open.text + "' expected: '('");
    std::set<std::string> out;
    const Token first = peek();
    if (first.tok == Tok::kClose) {
      take();
      return std::set<std::string>{""};
    }
    if (!value_word(first) && first.tok != Tok::kComma)
      return model::err("found '" + first.text + "', expected: ',', ')' or identifier");
    while (true) {
      const Token t = take();
      if (value_word(t)) {
        out.insert(t.text);
        const Token& next = peek();
        if (next.tok == Tok::kClose) break;
        if (next.tok != Tok::kComma) return model::err("found '" + next.text + "', expected: ',' or ')'");
      } else if (t.tok == Tok::kComma) {
        if (out.empty()) out.insert("");
        if (peek().tok == Tok::kClose || peek().tok == Tok::kComma) out.insert("");
        if (peek().tok == Tok::kClose) break;
      } else {
        return model::err("found '" + t.text + "', expected: ',', or identifier");
      }
    }
    if (take().tok != Tok::kClose) return model::err("found '" + first.text + "', expected: ')'");
    return out;
  }

  // What kube's NewRequirement checks once the requirement is read.
  static model::Result<LabelRequirement> check(LabelRequirement r) {
    std::vector<std::string> errors;
    if (r.op == Op::kGreaterThan || r.op == Op::kLessThan)
      for (size_t i = 0; i < r.values.size(); ++i)
        if (!go_parse_int(r.values[i]))
          errors.push_back("values[" + std::to_string(i) + "]: Invalid value: " + go_quote(r.values[i]) +
                           ": for 'Gt', 'Lt' operators, the value must be an integer");
    for (size_t i = 0; i < r.values.size(); ++i)
      if (const std::string why = model::label_value_problem(r.values[i]); !why.empty())
        errors.push_back("values[" + std::to_string(i) + "][" + r.key + "]: Invalid value: " + go_quote(r.values[i]) +
                         ": " + why);
    if (errors.empty()) return r;
    if (errors.size() == 1) return model::err(errors[0]);
    std::string joined = "[";
    for (size_t i = 0; i < errors.size(); ++i) joined += (i ? ", " : "") + errors[i];
    return model::err(joined + "]");
  }

  std::vector<Token> items_;
  size_t at_ = 0;
};

}  // namespace

bool LabelRequirement::matches(const Labels& labels) const {
  const auto it = labels.find(key);
  const bool has = it != labels.end();
  const auto listed = [&] { return has && std::binary_search(values.begin(), values.end(), it->second); };
  switch (op) {
    case Op::kIn:
    case Op::kEquals:
    case Op::kDoubleEquals: return listed();
    case Op::kNotIn:
    case Op::kNotEquals: return !has || !listed();
    case Op::kExists: return has;
    case Op::kDoesNotExist: return !has;
    case Op::kGreaterThan:
    case Op::kLessThan: {
      if (!has || values.size() != 1) return false;
      const auto have = go_parse_int(it->second);
      const auto want = go_parse_int(values[0]);
      if (!have || !want) return false;
      return op == Op::kGreaterThan ? *have > *want : *have < *want;
    }
  }
  return false;
}

bool LabelSelector::matches(const Labels& labels) const {
  return std::all_of(requirements.begin(), requirements.end(), [&](const LabelRequirement& r) { return r.matches(labels); });
}

model::Result<LabelSelector> parse_label_selector(std::string_view text) { return Parser(text).parse(); }

}  // namespace chaintwin::live
