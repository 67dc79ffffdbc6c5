# A Squib deck reading the card data in data.csv: one row per card design, and the qty column
# says how many copies of each row Squib makes (Squib's explode option, whose default is 'qty').
# deckgen import reads the same data.csv (see docs/import.md); this script is Squib's side of it.
require 'squib'

data = Squib.csv file: 'data.csv', explode: 'qty'

Squib::Deck.new cards: data['value'].size, layout: 'layout.yml' do
  background color: data['color'].map { |c| c == 'black' ? '#222222' : c }
  text str: data['value'], layout: 'title'
  save_pdf file: 'uno.pdf'
end
