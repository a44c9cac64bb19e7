import { render } from 'preact'
import { App } from './app.tsx'
// The stylesheet, in cascade order.
import './styles/base.css'
import './styles/forms.css'
import './styles/tables.css'
import './styles/tabs.css'
import './styles/figures.css'
import './styles/messages-dialogs.css'
import './styles/conflicts.css'
import './styles/search.css'
import './styles/screens.css'
import './styles/narrow.css'
import './styles/settlement.css'

render(<App />, document.getElementById('app')!)
