// Types of ./audit-electron.mjs (plain JavaScript, run by npm run audit:electron).
export interface Finding {
  check: string;
  severity: string;
  confidence: string;
  file: string;
  location: string;
  sample: string;
}
export function parseFindings(csv: string): Finding[];
export function wellFormed(finding: Finding): boolean;
export function reviewedExceptions(markdown: string): { check: string; file: string }[];
export function unreviewed(
  findings: Finding[],
  exceptions: { check: string; file: string }[],
): Finding[];
export const TOOL_DIR: string;
export function toolEntry(): string | null;
