/** A team note. */
export interface Note {
  id: string;
  title: string;
  body: string;
  tags: string[];
  createdAt: string;
}
