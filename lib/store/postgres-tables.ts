/** The names of PostgresStore's tables in one namespace (a schema, or the search_path). */
export interface Tables {
  schema?: string;
  meta: string;
  records: string;
  locks: string;
  holds: string;
  orderIds: string;
  attempts: string;
  migrations: string;
}

const quote = (id: string) => `"${id}"`;

export function tables(schema?: string): Tables {
  const q = (name: string) => (schema ? `${quote(schema)}.${name}` : name);
  return { schema, meta: q('cbk_meta'), records: q('cbk_records'), locks: q('cbk_locks'), holds: q('cbk_holds'), orderIds: q('cbk_order_ids'), attempts: q('cbk_attempts'), migrations: q('cbk_migrations') };
}
