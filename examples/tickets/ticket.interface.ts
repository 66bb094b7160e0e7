/** One support ticket. */
export interface Ticket {
  id: string;
  title: string;
  body: string;
  status: 'open' | 'closed';
  createdAt: string;
}
