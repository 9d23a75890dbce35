/** The project the queue test and the batch bench run: one short transaction per row, on the mock. */
export const CATEGORIZE_SOURCE = `
class Txn {
  n int
  category string
}

client<llm> Mock {
  provider openai-generic
  options {
    base_url env.MOCK_BASE_URL
    model "mock"
  }
}

function Categorize(text: string) -> Txn {
  client Mock
  prompt #"Categorize transaction {{ text }} {{ ctx.output_format }}"#
}
`;
