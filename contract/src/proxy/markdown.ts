/**
 * The drift report in Markdown, for a pull request or a ticket: one table of drifts, then what was signed for each
 * refused signature.
 * @module
 */
import type { DriftReport } from './drift';

const cell = (value: unknown): string =>
  String(typeof value === 'string' ? value : (JSON.stringify(value) ?? ''))
    .replace(/\|/g, '\\|')
    .replace(/\n/g, ' ');

/** The report as Markdown. */
export function markdownReport(report: DriftReport): string {
  const lines = [
    `# Drift of ${report.target} from the spec`,
    '',
    `Observed by card-issuing-contract proxy from ${report.startedAt}: ${report.exchanges} exchange(s), ${report.drifts.length} drift(s).`,
    '',
  ];
  if (report.drifts.length === 0) return `${lines.join('\n')}No drift: every answer matched the spec.\n`;
  lines.push('| kind | operation | request | where | spec says | target did | seen |', '|---|---|---|---|---|---|---|');
  for (const d of report.drifts) {
    lines.push(
      `| ${d.kind} | ${cell(d.operationId ?? '(none)')} | \`${cell(d.request)}\` | \`${cell(d.location)}\` | ${cell(d.spec)} | ${d.observed === undefined ? '' : `\`${cell(d.observed)}\``} | ${d.count} |`,
    );
  }
  for (const d of report.drifts.filter((x) => x.signing)) {
    lines.push('', `## Signature refused: ${d.request}`, '', `Signed: \`${d.signing!.stringToSign}\``);
    if (d.signing!.serverStringToSign) lines.push('', `The target expected: \`${d.signing!.serverStringToSign}\``);
    lines.push('', 'Likely causes:', ...d.signing!.likelyCauses.map((c) => `- ${c}`));
  }
  return `${lines.join('\n')}\n`;
}
