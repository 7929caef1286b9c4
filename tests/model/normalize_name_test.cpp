#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "model/normalize_name.h"

using namespace chaintwin::model;

TEST_CASE("product names normalize to label-safe slugs without the vendor prefix", "[normalize_name]") {
  struct Row {
    const char* name;
    const char* prefix;
    int max_length;
    bool strip;
    const char* want;
  };
  const Row rows[] = {
      {"NVIDIA GeForce RTX 4090", "nvidia", 57, false, "geforce-rtx-4090"},
      {"NVIDIA H100 80GB HBM3", "nvidia", 57, false, "h100-80gb-hbm3"},
      {"Tesla T4", "nvidia", 57, false, "tesla-t4"},
      {"Tesla  T4", "nvidia", 57, false, "tesla-t4"},           // doubled separators collapse
      {"AMD64 Accelerator", "amd", 59, false, "64-accelerator"},  // cleared the moment it reads "amd"
      {"Iluvatar BI-V150", "iluvatar", 54, false, "bi-v150"},
      {"MTT S4000", "mthreads", 54, false, "mtt-s4000"},          // no prefix to clear
      {"nvidia nvidia a100", "nvidia", 57, false, "a100"},        // cleared every time it recurs
      {"H100 SXM-", "nvidia", 57, false, "h100-sxm"},             // one trailing separator dropped
      {"  -._Leading", "", 0, false, "leading"},                   // no separator first
      {"Ascend 910B\xC2\xA0Pro", "ascend", 56, false, "910bpro"},  // non-ASCII dropped
      {"abcdefgh", "", 4, false, "abcd"},
      {"abc-defgh", "", 4, false, "abc"},                          // truncated, then trailing '-' dropped
      {"AMD EPYC 7763 64-Core Processor", "amd", 50, true, "epyc-7763"},
      {"AMD EPYC 7R13 Processor", "amd", 50, true, "epyc-7r13"},
      {"Intel(R) Xeon(R) Platinum 8259CL CPU @ 2.50GHz", "intel", 48, true, "xeon-platinum-8259cl"},
      {"11th Gen Intel(R) Core(TM) i7-1185G7 @ 3.00GHz", "intel", 48, true, "core-i7-1185g7"},
      {"Genuine Intel(R) CPU 0000%@", "intel", 48, true, "cpu-0000"},
      {"AMD Ryzen 9 5950X 16-Core Processor", "amd", 50, true, "ryzen-9-5950x"},
      {"AMD EPYC 9654 96-CORES", "amd", 50, true, "epyc-9654"},
      {"(TM)", "amd", 50, true, ""},
      {"AMD EPYC 7763 64-Core Processor", "amd", 50, false, "epyc-7763-64-core-processor"},
      // The operator's vectors: bounded and unbounded (0), with and without the CPU strip.
      {"AMD Instinct MI300X OAM", "amd", 49, false, "instinct-mi300x-oam"},
      {"Navi 32 [Radeon RX 7700 XT / 7800 XT]", "amd", 49, false, "navi-32-radeon-rx-7700-xt-7800-xt"},
      {"Ascend910B2", "ascend", 46, false, "910b2"},
      {"K100_AI", "hygon", 47, false, "k100_ai"},
      {"NVIDIA H100 80GB HBM3", "nvidia", 46, false, "h100-80gb-hbm3"},
      {"NVIDIA GeForce RTX 4090", "nvidia", 0, false, "geforce-rtx-4090"},
      {"AMD64 Accelerator", "amd", 0, false, "64-accelerator"},
      {"Tesla 4", "nvidia", 46, false, "tesla-4"},
      {"Iluvatar BI-V150", "iluvatar", 0, false, "bi-v150"},
      {"A  -_B--", "", 0, false, "a-b"},
      {"Tesla\xC2\xAE T4", "nvidia", 0, false, "tesla-t4"},
      {"NVIDIA A100 SXM4 Some Very Long Marketing Qualifier Extended 80GB", "nvidia", 56, false,
       "a100-sxm4-some-very-long-marketing-qualifier-extended-80"},
      {"Intel(R) Xeon(R) Platinum 8358 CPU @ 2.60GHz", "intel", 0, true, "xeon-platinum-8358"},
      {"Intel(R) Xeon(R) Platinum 8480+ CPU @ 2.00GHz", "intel", 0, true, "xeon-platinum-8480"},
      {"Intel(R) Core(TM) i9-14900K", "intel", 0, true, "core-i9-14900k"},
      {"Intel(R) Xeon(R) Platinum 8358 CPU @ 2.60GHz", "intel", 10, true, "xeon-plati"},
      {"AMD EPYC 7763 64-Core Processor", "amd", 0, true, "epyc-7763"},
      {"AMD Ryzen Threadripper PRO 5995WX 64-Cores", "amd", 0, true, "ryzen-threadripper-pro-5995wx"},
      {"11th Gen Intel(R) Core(TM) i7-1165G7 @ 2.80GHz", "intel", 0, true, "core-i7-1165g7"},
      {"Genuine Intel(R) CPU 0000 @ 2.00GHz", "intel", 0, true, "cpu-0000"},
      {"AMD EPYC 7763 64-Core Processor", "amd", 0, false, "epyc-7763-64-core-processor"},
      {"Intel(R) Core(TM) i9-14900K", "intel", 0, false, "r-coretm-i9-14900k"},
      {"NVIDIA", "nvidia", 46, false, ""},
      {"   ", "", 0, false, ""},
  };
  for (const auto& row : rows) {
    INFO(row.name << " / " << row.prefix << " / " << row.max_length);
    CHECK(normalize_name(row.name, row.prefix, row.max_length, row.strip) == row.want);
  }
}

TEST_CASE("the CPU cruft strip cuts frequency, trademarks, generation words, CPU/Processor and core counts",
          "[normalize_name]") {
  CHECK(strip_cpu_name_cruft("Intel(R) Xeon(R) Platinum 8358 CPU @ 2.60GHz") == "Intel Xeon Platinum 8358");
  CHECK(strip_cpu_name_cruft("Genuine 12th Gen Intel(r) Core(tm) i9") == "Intel Core i9");
  CHECK(strip_cpu_name_cruft("  AMD EPYC 7763 64-Core Processor  ") == "AMD EPYC 7763");
  CHECK(strip_cpu_name_cruft("Kunpeng 920") == "Kunpeng 920");
  CHECK(strip_cpu_name_cruft("Some 8-core") == "Some");
  CHECK(strip_cpu_name_cruft("Some x-core") == "Some x-core");  // the count must be digits
}

TEST_CASE("the CPU-name strip trims every space strings.TrimSpace does and keeps a '(' no marker starts",
          "[normalize_name]") {
  struct Case {
    std::string in, out;
  };
  const std::vector<Case> cases{
      {"\xC2\xA0Kunpeng 920\xC2\xA0", "Kunpeng 920"},                   // no-break space
      {"\xE3\x80\x80\xE2\x80\x83Kunpeng 920\xE2\x80\xAF", "Kunpeng 920"},  // ideographic, em, narrow
      {"\xE2\x80\x8BKunpeng\xE2\x80\x8B", "\xE2\x80\x8BKunpeng\xE2\x80\x8B"},  // zero-width: not a space
      {"Kunpeng \xC3\xA9", "Kunpeng \xC3\xA9"},                          // a letter ends it, not a space
      {"Xeon (Gold) (R)(TM) 6330 (tm", "Xeon (Gold)  6330 (tm"},
      {"(R)(r)(TM)(tm)", ""},
      {"((R)R)", "(R)"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.in);
    CHECK(strip_cpu_name_cruft(c.in) == c.out);
  }
}

TEST_CASE("label values keep their case and lose what a label value may not hold", "[normalize_name]") {
  CHECK(sanitize_label_value("Tesla T4") == "Tesla-T4");
  CHECK(sanitize_label_value("580.126.09") == "580.126.09");
  CHECK(sanitize_label_value("-x-") == "x");
  CHECK(sanitize_label_value("") == "");
  CHECK(sanitize_label_value(std::string(70, 'A')) == std::string(63, 'A'));
}

TEST_CASE("VRAM prints at the largest binary unit it reaches, rounded half up", "[normalize_name]") {
  CHECK(format_binary_si_mib(15360) == "15Gi");
  CHECK(format_binary_si_mib(81920) == "80Gi");
  CHECK(format_binary_si_mib(196608) == "192Gi");
  CHECK(format_binary_si_mib(43238) == "42Gi");
  CHECK(format_binary_si_mib(1536) == "2Gi");
  CHECK(format_binary_si_mib(512) == "512Mi");
  CHECK(format_binary_si_mib(1048576) == "1Ti");
  CHECK(format_binary_si_mib(0) == "0");
}

TEST_CASE("a group id drops the vendor prefix and gains a memory suffix only when asked", "[normalize_name]") {
  CHECK(construct_group_id("nvidia", "NVIDIA A10G") == "a10g");
  CHECK(construct_group_id("amd", "AMD Instinct MI300X") == "instinct-mi300x");
  CHECK(construct_group_id("nvidia", "Tesla T4", 15360, true) == "tesla-t4-15g");
  CHECK(construct_group_id("nvidia", "Tesla T4", 512, true) == "tesla-t4-1g");
  CHECK(construct_group_id("nvidia", "Tesla T4", 0, true) == "tesla-t4-0g");
  CHECK(accelerator_key("nvidia", "tesla-t4") == "nvidia-tesla-t4");
  const std::string id = construct_group_id("nvidia", std::string(100, 'x'), 81920, true);
  CHECK(("nvidia-" + id).size() <= 63);
  CHECK(id.substr(id.size() - 4) == "-80g");
}

TEST_CASE("an aKey compared in place matches exactly the key accelerator_key builds", "[normalize_name]") {
  const std::vector<std::string> parts{"", "nvidia", "nvidia-a10g", "a10g", "-", "g", "tesla-t4", "amd"};
  int matches = 0;
  for (const auto& manufacturer : parts)
    for (const auto& group : parts)
      for (const auto& key_m : parts)
        for (const auto& key_g : parts) {
          const std::string key = accelerator_key(key_m, key_g);
          CAPTURE(key, manufacturer, group);
          const bool same = key == accelerator_key(manufacturer, group);
          CHECK(is_accelerator_key(key, manufacturer, group) == same);
          matches += same ? 1 : 0;
        }
  CHECK(matches > static_cast<int>(parts.size() * parts.size()));  // ambiguous splits ("nvidia-a10g"-"g") match too
  CHECK_FALSE(is_accelerator_key("nvidia-a10g-x", "nvidia", "a10g"));
  CHECK_FALSE(is_accelerator_key("nvidia_a10g", "nvidia", "a10g"));
}
