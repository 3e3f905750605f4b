// Writes the acct-* events an element dispatches into the page's #event-log list (demo only).
export function logEvents(names) {
  const list = document.getElementById('event-log');
  for (const name of names) {
    document.addEventListener(name, (event) => {
      const item = document.createElement('li');
      item.textContent = `${name} ${JSON.stringify(event.detail)}`;
      list?.append(item);
    });
  }
}
