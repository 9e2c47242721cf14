export interface Workspace {
  _id: string;
  name: string;
  createdAt: string;
  updatedAt: string;
}
