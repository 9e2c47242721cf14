/** A comma-separated list of event types and wildcards (`inbox.*,crm.lead.won`) as an option gives it; every event when absent. */
export const eventPatterns = (list: string | undefined): string[] =>
  list
    ? list
        .split(',')
        .map((e) => e.trim())
        .filter(Boolean)
    : ['*'];
