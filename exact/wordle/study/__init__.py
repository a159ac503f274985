"""Studies and players built on the engines: memorable trees and cards, trade-offs, policies, openers, analysis of a game, play along, the HTML explorer."""
