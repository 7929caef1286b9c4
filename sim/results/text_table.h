// TextTable: columns of cells aligned per column, two spaces apart, trailing blanks trimmed. The
// text report (report_format.cpp) and the run comparison (report_diff.cpp) print with it.
#pragma once

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace chaintwin::sim {

class TextTable {
 public:
  // align[c] is 'l' (names) or 'r' (numbers); columns past its end align right.
  TextTable(std::vector<std::string> header, std::string align) : align_(std::move(align)) {
    rows_.push_back(std::move(header));
  }
  void add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  std::string str() const {
    std::vector<size_t> width(rows_.front().size(), 0);
    for (const auto& row : rows_)
      for (size_t c = 0; c < row.size() && c < width.size(); ++c) width[c] = std::max(width[c], utf8_length(row[c]));
    std::string out;
    for (const auto& row : rows_) {
      std::string line;
      for (size_t c = 0; c < row.size() && c < width.size(); ++c) {
        const std::string pad(width[c] - utf8_length(row[c]), ' ');
        if (c > 0) line += "  ";
        line += c < align_.size() && align_[c] == 'l' ? row[c] + pad : pad + row[c];
      }
      line.erase(line.find_last_not_of(' ') + 1);
      out += line + "\n";
    }
    return out;
  }

 private:
  // Code points, so "×" and "−" count as one column.
  static size_t utf8_length(const std::string& s) {
    size_t n = 0;
    for (const char ch : s) n += (static_cast<unsigned char>(ch) & 0xC0) != 0x80 ? 1 : 0;
    return n;
  }
  std::vector<std::vector<std::string>> rows_;
  std::string align_;
};

}  // namespace chaintwin::sim
