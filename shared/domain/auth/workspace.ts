export interface Workspace {
  _id: string;
  name: string;
  /** IANA time zone; reports and business hours are read in it. */
  timezone: string;
  createdAt: string;
  updatedAt: string;
}
