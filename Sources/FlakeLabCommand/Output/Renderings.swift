package import FlakeLab

/// The formats a command offers, each with the renderer of the command's model, declared once:
/// `--format` takes exactly the formats that render, and its help lists them.
package struct Renderings<Model> {
  package let renderers: [(format: OutputFormat, render: (Model) -> String)]

  package init(renderers: [(format: OutputFormat, render: (Model) -> String)]) {
    self.renderers = renderers
  }

  package var formats: [OutputFormat] { renderers.map(\.format) }

  /// `--format` among these formats.
  package var option: Option<OutputFormat> { OutputFormat.option(offering: formats) }

  /// `model` in `format`, which `--format` took from ``formats``; the first renderer is the text.
  package func render(_ model: Model, as format: OutputFormat) -> String {
    (renderers.first { $0.format == format } ?? renderers[0]).render(model)
  }
}

extension Renderings where Model == Report {
  /// A lab's report (`run`, `compare`, `check`, `test`, `merge`): every format, with the
  /// command's own text.
  package static func report(text: @escaping (Report) -> String) -> Self {
    Renderings(renderers: [
      (.text, text), (.json, ReportJSON.render), (.junit, ReportJUnit.render), (.csv, ReportCSV.render),
      (.markdown, ReportMarkdown.render), (.html, ReportHTML.render),
    ])
  }

  /// `--format` of every command that reports: the text is each command's own.
  package static let reportOption = report(text: ReportText.render).option
}
