export function App() {
  return (
    <main>
      <h1>Self-RAG in your browser</h1>
      <p>Ask questions about your own documents. Nothing leaves this machine.</p>
    </main>
  );
}
