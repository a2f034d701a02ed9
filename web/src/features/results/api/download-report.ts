import { useMutation } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import type { DownloadRequest } from "../../../lib/domain";

/** The file name from Content-Disposition, else a default based on the report id (docs/PRODUCT.md §7.8). */
export function fileNameFrom(header: string | null, reportId: string) {
  const star = header?.match(/filename\*=UTF-8''([^;]+)/i);
  if (star?.[1]) return decodeURIComponent(star[1]);
  const plain = header?.match(/filename="?([^";]+)"?/i);
  return plain?.[1] ?? `website-analysis-report-${reportId}.pdf`;
}

/** POST /api/download-basic-report and save the returned PDF. */
export async function downloadBasicReport(req: DownloadRequest) {
  const res = await apiRequest("POST", "/api/download-basic-report", req);
  const blob = await res.blob();
  const name = fileNameFrom(res.headers.get("Content-Disposition"), req.reportId);
  const href = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = href;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 1000);
  return name;
}

export const useDownloadBasicReport = () => useMutation({ mutationFn: downloadBasicReport });
