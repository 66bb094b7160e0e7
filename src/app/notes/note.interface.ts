/** A team note. */
export interface Note {
  id: string;
  title: string;
  body: string;
  tags: string[];
  createdAt: string;
  /** Who created it: the authenticated caller's subject, when there was one. */
  author?: string;
}
