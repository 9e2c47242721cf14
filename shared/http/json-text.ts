/**
 * What a public document's handler returns to answer JSON it already holds as text (the OpenAPI document):
 * `respond` sends the text as the body, so a cold start neither parses nor re-serializes it. `T` is the value
 * the text encodes, so the route's `response` schema still types it.
 */
export class JsonText<T> {
  declare readonly encodes?: T;
  constructor(readonly text: string) {}
}
