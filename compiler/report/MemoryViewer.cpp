//===- MemoryViewer.cpp - the memory viewer page --------------------------===//
//
// One self-contained HTML page (inline SVG and CSS, no scripts, no network)
// in the spirit of TensorBoard's memory_viewer: live HBM bytes over the
// schedule, padded and unpadded, the usable capacity, the peak, and the
// largest buffers live at the peak.
//
//===----------------------------------------------------------------------===//

#include "compiler/report/Reports.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"

using tpuc::analysis::Allocation;
using tpuc::analysis::MemoryPlan;

namespace tpuc::report {
namespace {

std::string escape(llvm::StringRef text) {
  std::string out;
  for (char c : text) {
    switch (c) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    default:
      out += c;
    }
  }
  return out;
}

constexpr double kWidth = 960, kHeight = 360, kLeft = 80, kTop = 20,
                 kBottom = 40;

} // namespace

void writeMemoryViewer(const MemoryPlan &plan, const ReportContext &context,
                       llvm::raw_ostream &os) {
  // Arguments and constants are live throughout: a constant base.
  int64_t base = plan.argumentBytes + plan.globalBytes;
  int64_t baseUnpadded = 0;
  for (const Allocation &a : plan.allocations)
    if (a.kind == analysis::AllocationKind::Parameter ||
        a.kind == analysis::AllocationKind::Constant)
      baseUnpadded += a.unpaddedBytes;
  size_t steps = plan.livePadded.size();
  int64_t peak = base + plan.livePadded[plan.peakStep];
  int64_t usable = plan.usableBytes();
  // Show the capacity line unless it would flatten the curves.
  bool showCapacity = usable <= 2 * peak;
  double top = std::max<double>(showCapacity ? std::max(peak, usable) : peak,
                                1) * 1.05;
  double plotW = kWidth - kLeft - 20, plotH = kHeight - kTop - kBottom;
  auto x = [&](size_t s) {
    return kLeft + (steps > 1 ? plotW * s / (steps - 1) : 0);
  };
  auto y = [&](double bytes) { return kTop + plotH * (1 - bytes / top); };
  auto polyline = [&](const std::vector<int64_t> &live, int64_t offset,
                      const char *cls) {
    os << "<polyline class=\"" << cls << "\" points=\"";
    for (size_t s = 0; s < steps; ++s)
      os << llvm::format("%.1f,%.1f ", x(s), y(live[s] + offset));
    os << "\"/>\n";
  };

  std::string title = "Memory viewer: " + context.moduleName + " on " +
                      plan.targetName + " (layout=" + context.layoutMode +
                      ")";
  os << "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n<title>"
     << escape(title) << "</title>\n<style>\n"
     << "body{font-family:sans-serif;margin:16px;background:#fff;color:#222}\n"
     << ".padded{fill:none;stroke:#d62728;stroke-width:2}\n"
     << ".unpadded{fill:none;stroke:#1f77b4;stroke-width:2}\n"
     << ".capacity{stroke:#000;stroke-dasharray:6,4}\n"
     << ".axis{stroke:#888}\ntext{font-size:12px}\n"
     << "table{border-collapse:collapse}td,th{border:1px solid #ccc;"
        "padding:2px 6px;font-size:12px;text-align:left}\n"
     << "</style></head><body>\n<h2>" << escape(title) << "</h2>\n<p>Peak "
     << formatBytes(peak) << " at step " << plan.peakStep << " of "
     << steps - 1 << " (arguments and globals " << formatBytes(base)
     << ", HLO temp heap " << formatBytes(plan.heapBytes)
     << ", liveness lower bound " << formatBytes(plan.lowerBoundBytes)
     << "); usable HBM " << formatBytes(usable) << " of "
     << formatBytes(plan.capacityBytes) << " ("
     << formatBytes(plan.reservedBytes) << " reserved)"
     << (plan.fits() ? "" : " &mdash; <b>does not fit</b>") << ".</p>\n";

  os << llvm::format("<svg id=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" "
                     "width=\"%.0f\" height=\"%.0f\">\n",
                     kWidth, kHeight);
  os << "<rect x=\"0\" y=\"0\" width=\"100%\" height=\"100%\" fill=\"#fafafa\"/>\n";
  os << llvm::format("<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
                     "y2=\"%.1f\"/>\n",
                     kLeft, y(0), kLeft + plotW, y(0));
  os << llvm::format("<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
                     "y2=\"%.1f\"/>\n",
                     kLeft, kTop, kLeft, y(0));
  for (int tick = 0; tick <= 4; ++tick) {
    double bytes = top * tick / 4;
    os << llvm::format("<text x=\"4\" y=\"%.1f\">", y(bytes) + 4)
       << formatBytes(static_cast<int64_t>(bytes)) << "</text>\n";
  }
  os << llvm::format("<text x=\"%.1f\" y=\"%.1f\">program order (step)</text>\n",
                     kLeft + plotW / 2 - 50, kHeight - 8);
  // Far above the curves, the capacity line sits at the top, marked.
  double capacityY = showCapacity ? y(usable) : kTop;
  os << llvm::format("<line class=\"capacity\" x1=\"%.1f\" y1=\"%.1f\" "
                     "x2=\"%.1f\" y2=\"%.1f\"/>\n",
                     kLeft, capacityY, kLeft + plotW, capacityY);
  os << llvm::format("<text x=\"%.1f\" y=\"%.1f\">usable HBM ", kLeft + 4,
                     capacityY + (showCapacity ? -4 : 14))
     << formatBytes(usable) << (showCapacity ? "" : " (off scale)")
     << "</text>\n";
  polyline(plan.livePadded, base, "padded");
  polyline(plan.liveUnpadded, baseUnpadded, "unpadded");
  os << llvm::format("<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"#d62728\"/>"
                     "\n<text x=\"%.1f\" y=\"%.1f\">peak ",
                     x(plan.peakStep), y(peak), x(plan.peakStep) + 8,
                     y(peak) + 14)
     << formatBytes(peak) << "</text>\n";
  os << llvm::format("<text x=\"%.1f\" y=\"%.1f\" fill=\"#d62728\">padded"
                     "</text><text x=\"%.1f\" y=\"%.1f\" fill=\"#1f77b4\">"
                     "unpadded</text>\n",
                     kWidth - 160, kTop + 12, kWidth - 100, kTop + 12);
  os << "</svg>\n";

  // The buffers live at the peak, largest first.
  std::vector<const Allocation *> live;
  for (const Allocation &a : plan.allocations)
    if (a.start <= plan.peakStep && plan.peakStep <= a.end)
      live.push_back(&a);
  llvm::stable_sort(live, [](const Allocation *p, const Allocation *q) {
    return p->paddedBytes > q->paddedBytes;
  });
  os << "<h3>Largest buffers live at the peak</h3>\n<table id=\"buffers\">\n"
     << "<tr><th>#</th><th>Buffer</th><th>Operator</th><th>Shape</th>"
        "<th>Size</th><th>Unpadded</th><th>Padding</th><th>Live range</th>"
        "<th>Type</th></tr>\n";
  for (auto [i, a] : llvm::enumerate(live)) {
    if (i == 25)
      break;
    analysis::SourceInfo info = analysis::sourceInfo(a->value.getLoc());
    os << "<tr><td>" << i + 1 << "</td><td>" << escape(a->name) << "</td><td>"
       << escape(info.opName) << "</td><td>" << escape(a->shape)
       << "</td><td>" << formatBytes(a->paddedBytes) << "</td><td>"
       << formatBytes(a->unpaddedBytes) << "</td><td>"
       << formatBytes(a->paddedBytes - a->unpaddedBytes) << "</td><td>"
       << a->start << "&ndash;" << a->end << "</td><td>"
       << analysis::allocationKindName(a->kind) << "</td></tr>\n";
  }
  os << "</table>\n</body></html>\n";
}

} // namespace tpuc::report
