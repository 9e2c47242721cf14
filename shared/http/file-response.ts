/** What a handler returns to answer with a file (e.g. an iCalendar file) instead of the JSON success wrapper. */
export class FileResponse {
  constructor(
    readonly contentType: string,
    readonly filename: string,
    readonly body: string,
  ) {}
}
