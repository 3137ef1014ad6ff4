// Export from local data (issue 13): .ics calendars, CSV for spreadsheets and the attendance list
// as PDF, from the replica alone. One call serves the command line, the desktop app and browser
// mode: exportData(replica, request) answers the file's suggested name, type and bytes; whoever
// calls it writes them (a file, a save dialog, a download). Its failures are CoreFailures in
// German and English (invalid_arguments, not_found), never a stack trace. An .ics export writes
// one thing into the replica: each entry's content digest and SEQUENCE (export_uids, see uids.ts).
import type { Replica } from '../db/open';
import { refusedArguments } from '../core-error';
import { exportCalendar } from './ics-export';
import { exportCsv } from './csv-export';
import { checkCombination, exportRequestSchema } from './request';
import type { ExportResult } from './result';

export {
  exportRequestSchema,
  EXPORT_FORMATS,
  EXPORT_SUBJECTS,
  type ExportRequest,
  type ExportRequestInput,
} from './request';
export type { ExportResult } from './result';

export interface ExportOptions {
  /** The export time (DTSTAMP, the PDF's date); default now. */
  now?: Date;
}

export async function exportData(
  replica: Replica,
  /** An ExportRequestInput, checked here with exportRequestSchema (any caller, any transport). */
  input: unknown,
  options: ExportOptions = {},
): Promise<ExportResult> {
  const parsed = exportRequestSchema.safeParse(input);
  if (!parsed.success) throw refusedArguments('export', exportRequestSchema, input, parsed.error);
  const request = parsed.data;
  checkCombination(request);
  // Whole seconds: DTSTAMP and the PDF's dates carry no fractions.
  const now = new Date(Math.floor((options.now ?? new Date()).getTime() / 1000) * 1000);
  switch (request.format) {
    case 'ics':
      return exportCalendar(replica, request, now);
    case 'csv':
      return exportCsv(replica, request, now);
    case 'pdf': {
      // The PDF library and its fonts load only for a PDF (every command line start saves them).
      const { exportAttendance, exportCertificates, exportDuePdf } = await import('./pdf-export');
      return request.what === 'due'
        ? exportDuePdf(replica, request, now)
        : request.what === 'certificates'
          ? exportCertificates(replica, request, now)
          : exportAttendance(replica, request, now);
    }
  }
}
