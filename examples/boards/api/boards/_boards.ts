/** Not a route (a leading underscore): shared by the board APIs. */
export interface Board {
  id: string;
  title: string;
}

export function boardsOf(userId: string): Board[] {
  return [
    { id: `${userId}-todo`, title: 'To do' },
    { id: `${userId}-doing`, title: 'Doing' },
    { id: `${userId}-done`, title: 'Done' },
  ];
}
