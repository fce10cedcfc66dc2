import FlakeLabCommand
import Scenarios

FlakeLabCommand.main(catalog: .standard)
