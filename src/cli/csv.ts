// The CSV writer is shared with the HTTP export (GET /v1/tasks/{id}/export): one set of quoting rules.
export { csvCell, csvLine, type CsvValue } from '../exports/csv.js';
