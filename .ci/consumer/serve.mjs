// Shared by the consumer checks: POST one order to a listening server and insist on the kit's reply.
export async function postOrder(server, path, order, expectedInternalId) {
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const res = await fetch(`http://127.0.0.1:${server.address().port}${path}`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(order),
    });
    const body = await res.json();
    const want = { Success: true, InternalOrderId: expectedInternalId };
    if (res.status !== 200 || JSON.stringify(body) !== JSON.stringify(want)) {
      throw new Error(`POST ${path} answered ${res.status} ${JSON.stringify(body)}; expected 200 ${JSON.stringify(want)}`);
    }
  } finally {
    server.close();
  }
}
