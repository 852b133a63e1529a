package explain

import (
	"fmt"

	"github.com/lifeline-dev/lifeline/model/explain"
)

// labels are the renderer's own words, per language. The model's terms (Run, Turn, Step,
// statuses, stop reasons, roles) are identifiers and stay as they are in both.
var labels = map[string]map[string]string{
	"en": {
		"colon":                    ": ",
		"open":                     " (",
		"close":                    ")",
		"topics":                   "Topics of lifeline explain",
		"topics_hint":              "lifeline explain TOPIC prints one: its definition, a live drawing from the reference runtime and how each framework names and implements it.",
		"aliases":                  "also",
		"definition":               "Definition",
		"source":                   "Source",
		"drawing":                  "Live from the reference runtime",
		"scenario":                 "scenario",
		"reproduce":                "whole scenario",
		"shape":                    "shape",
		"frameworks":               "How each framework names and implements it",
		"frameworks_hint":          "Generated from the built-in mapping profiles (rules and vocabulary), the framework vocabulary table and, for the reference runtime, its lifecycle map (lifeline map ./model/runtime); every location is a line of this repository, except the map sites of a framework installed under --framework-root, which are lines of its files there.",
		"framework":                "framework",
		"version":                  "read at",
		"names":                    "names",
		"map":                      "map",
		"implements":               "implemented by (profile, map)",
		"none":                     "— no counterpart on record, in the profile or the vocabulary table",
		"map_installed":            "map of the installed %s at %s (lifeline map, now); its locations are lines of the files there",
		"map_not_requested":        "map sites not computed: lifeline explain --framework-root DIR maps the copy bench/seeds/install.sh DIR installs",
		"map_not_installed":        "map sites not computed: not installed under %s (bench/seeds/install.sh installs it)",
		"map_more":                 "… %d more map sites of these kinds (lifeline map shows them all)",
		"fact." + "status_history": "status history",
		"fact." + "inputs":         "inputs (consumed by)",
		"fact." + "connections":    "connections",
		"fact." + "lineage":        "lineage",
		"fact." + "recovery":       "recovery after the crash",
		"fact." + "side_effects":   "side effects",
	},
	"zh": {
		"colon":                    "：",
		"open":                     "（",
		"close":                    "）",
		"topics":                   "lifeline explain 的主题",
		"topics_hint":              "lifeline explain TOPIC 输出一个主题：它的定义、参考运行时的现场绘制，以及各框架如何命名和实现它。",
		"aliases":                  "别名",
		"definition":               "定义",
		"source":                   "来源",
		"drawing":                  "参考运行时的现场绘制",
		"scenario":                 "场景",
		"reproduce":                "完整场景",
		"shape":                    "形状",
		"frameworks":               "各框架如何命名和实现",
		"frameworks_hint":          "由内置的映射 Profile（规则与词表）、框架词汇表以及参考运行时的生命周期图（lifeline map ./model/runtime）生成；每个位置都是本仓库中的一行，但 --framework-root 下已安装框架的生命周期图位置是该处文件中的行。",
		"framework":                "框架",
		"version":                  "阅读版本",
		"names":                    "名称",
		"map":                      "生命周期图",
		"implements":               "实现（Profile、生命周期图）",
		"none":                     "— Profile 和词汇表中都没有对应的记录",
		"map_installed":            "已安装的 %s 的生命周期图，位于 %s（lifeline map 现场生成）；其位置是该处文件中的行",
		"map_not_requested":        "未计算生命周期图：lifeline explain --framework-root DIR 会为 bench/seeds/install.sh DIR 安装的副本生成",
		"map_not_installed":        "未计算生命周期图：%s 下未安装（bench/seeds/install.sh 会安装它）",
		"map_more":                 "… 另有 %d 个同类生命周期图位置（lifeline map 会全部列出）",
		"fact." + "status_history": "状态历史",
		"fact." + "inputs":         "输入（由谁消费）",
		"fact." + "connections":    "连接",
		"fact." + "lineage":        "血缘关系",
		"fact." + "recovery":       "崩溃后的恢复",
		"fact." + "side_effects":   "副作用",
	},
}

func label(lang, key string) string {
	if s, ok := labels[lang][key]; ok {
		return s
	}
	return labels["en"][key]
}

// paren is "(s)" in the language's punctuation.
func paren(lang, s string) string { return label(lang, "open") + s + label(lang, "close") }

// colon is "k: v" in the language's punctuation.
func colon(lang, k, v string) string { return k + label(lang, "colon") + v }

// mapNotes are a framework row's lines about its map sites: where they were computed from, that
// they were not and why, and how many were left off. None for the built-in map or no map.
func mapNotes(lang string, row explain.FrameworkRow) []string {
	var out []string
	switch m := row.Map; m.State {
	case explain.MapInstalled:
		v := m.Version
		if v == "" {
			v = row.Framework
		}
		out = append(out, fmt.Sprintf(label(lang, "map_installed"), v, m.Root))
	case explain.MapNotRequested:
		out = append(out, label(lang, "map_not_requested"))
	case explain.MapNotInstalled:
		out = append(out, fmt.Sprintf(label(lang, "map_not_installed"), m.Root))
	}
	if row.MoreSites > 0 {
		out = append(out, fmt.Sprintf(label(lang, "map_more"), row.MoreSites))
	}
	return out
}
