//===- ClangPlugin.cpp - clang -fplugin=SamplerPass.so --------------------===//
//
// DESCRIPTION
//   The front-end half of SamplerPass.so. A PluginASTAction that
//    - parses -fplugin-arg-sampler-NAME=VALUE into SamplerOptions (errors are
//      clang errors, so the compile fails instead of silently not
//      instrumenting);
//    - walks the AST to record the source text of every condition, switch and
//      call by position (FrontEndInfo), the functions declared in system
//      headers, `#pragma sampler weightless(f, ...)` / `skip(f, ...)` and
//      `__attribute__((annotate("sampler_weightless" / "sampler_skip")))`;
//    - registers the pass at the start of the optimisation pipeline through
//      CodeGenOpts.PassBuilderCallbacks (the clang/examples/
//      LLVMPrintFunctionNames pattern), so it also runs at -O0.
//
// USAGE
//   clang-19 -fplugin=build/lib/SamplerPass.so -O2 -c x.c
//   clang-19 -fplugin=build/lib/SamplerPass.so
//       -fplugin-arg-sampler-schemes=branches -fplugin-arg-sampler-sampling=off ...
//   Source positions need debug locations: pass -g, -gline-tables-only, or
//   (what sampler-cc does) -Rpass=sampler-location-tracking, which makes clang
//   track locations without emitting debug info.
//
//===----------------------------------------------------------------------===//
#include "FrontEndInfo.h"
#include "SamplerPass.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/Mangle.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/CodeGenOptions.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/Pragma.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/Passes/PassBuilder.h"

using namespace clang;
using namespace sampler;

namespace {

/// One translation unit per cc1 process: the plugin's state is global so that
/// the pragma handler, the AST consumer and the pass all see it.
FrontEndInfo TheFrontEndInfo;
std::set<std::string> PragmaWeightless, PragmaSkip;
std::optional<SamplerOptions> ActiveOptions;

constexpr size_t MaxTextLength = 160;

std::string normalize(StringRef Text) {
  std::string Out;
  bool Space = false;
  for (char C : Text) {
    if (isspace(static_cast<unsigned char>(C))) {
      Space = !Out.empty();
      continue;
    }
    if (Space)
      Out += ' ';
    Space = false;
    Out += C;
  }
  if (Out.size() > MaxTextLength)
    Out = Out.substr(0, MaxTextLength - 3) + "...";
  return Out;
}

class SiteTextCollector : public RecursiveASTVisitor<SiteTextCollector> {
public:
  SiteTextCollector(ASTContext &Ctx)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Names(Ctx) {}

  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return false; }

  bool VisitIfStmt(IfStmt *S) {
    if (const Expr *Cond = S->getCond())
      addAt({Cond->getBeginLoc(), S->getBeginLoc()}, FrontEndInfo::Kind::Branch,
            text(Cond));
    return true;
  }
  bool VisitWhileStmt(WhileStmt *S) { return loop(S, S->getCond()); }
  bool VisitForStmt(ForStmt *S) { return loop(S, S->getCond()); }
  bool VisitDoStmt(DoStmt *S) {
    if (const Expr *Cond = S->getCond())
      addAt({Cond->getBeginLoc(), S->getWhileLoc(), Cond->getExprLoc()},
            FrontEndInfo::Kind::Branch, text(Cond));
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *E) {
    // For `a && b` clang branches on `a` at the operator's position.
    if (E->isLogicalOp())
      addAt({E->getOperatorLoc()}, FrontEndInfo::Kind::Branch, text(E->getLHS()));
    return true;
  }
  bool VisitAbstractConditionalOperator(AbstractConditionalOperator *E) {
    addAt({E->getCond()->getBeginLoc(), E->getQuestionLoc(), E->getBeginLoc()},
          FrontEndInfo::Kind::Branch, text(E->getCond()));
    return true;
  }
  bool VisitSwitchStmt(SwitchStmt *S) {
    if (const Expr *Cond = S->getCond())
      addAt({S->getBeginLoc(), Cond->getBeginLoc()}, FrontEndInfo::Kind::Switch,
            text(Cond));
    return true;
  }
  bool VisitCallExpr(CallExpr *E) {
    std::string Callee;
    if (const Expr *C = E->getCallee())
      Callee = text(C);
    if (Callee.empty() || isa<CXXOperatorCallExpr>(E))
      Callee = text(E);
    else
      Callee += E->getNumArgs() ? "(...)" : "()";
    addAt({E->getBeginLoc(), E->getExprLoc()}, FrontEndInfo::Kind::Call, Callee);
    return true;
  }
  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->isDependentContext() || isa<CXXDeductionGuideDecl>(FD))
      return true;
    auto IRName = [&] { return Names.getName(FD); };
    for (const AnnotateAttr *A : FD->specific_attrs<AnnotateAttr>()) {
      if (A->getAnnotation() == "sampler_weightless")
        TheFrontEndInfo.Weightless.insert(IRName());
      else if (A->getAnnotation() == "sampler_skip")
        TheFrontEndInfo.Skip.insert(IRName());
    }
    std::string Plain = FD->getNameAsString();
    std::string Qualified = FD->getQualifiedNameAsString();
    if (PragmaWeightless.count(Plain) || PragmaWeightless.count(Qualified))
      TheFrontEndInfo.Weightless.insert(IRName());
    if (PragmaSkip.count(Plain) || PragmaSkip.count(Qualified))
      TheFrontEndInfo.Skip.insert(IRName());
    // Declarations (not definitions) from system headers: their code is not
    // ours and has no sites; Weightless.cpp still treats the ones that take
    // callbacks as weighty.
    if (!FD->hasBody() && SM.isInSystemHeader(FD->getLocation()))
      TheFrontEndInfo.SystemHeaderFunctions.insert(IRName());
    return true;
  }

private:
  bool loop(Stmt *S, Expr *Cond) {
    if (Cond)
      addAt({S->getBeginLoc(), Cond->getBeginLoc(), Cond->getExprLoc()},
            FrontEndInfo::Kind::Branch, text(Cond));
    return true;
  }

  std::string text(const Expr *E) {
    CharSourceRange R = SM.getExpansionRange(E->getSourceRange());
    bool Invalid = false;
    StringRef T = Lexer::getSourceText(R, SM, Ctx.getLangOpts(), &Invalid);
    return Invalid ? std::string() : normalize(T);
  }

  void addAt(std::initializer_list<SourceLocation> Locs, FrontEndInfo::Kind K,
             const std::string &Text) {
    if (Text.empty())
      return;
    for (SourceLocation L : Locs) {
      if (L.isInvalid())
        continue;
      PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(L));
      if (P.isInvalid())
        continue;
      TheFrontEndInfo.addText(FrontEndInfo::canonicalPath("", P.getFilename()),
                              P.getLine(), P.getColumn(), K, Text);
    }
  }

  ASTContext &Ctx;
  SourceManager &SM;
  ASTNameGenerator Names;
};

class SamplerASTConsumer : public ASTConsumer {
public:
  void HandleTranslationUnit(ASTContext &Ctx) override {
    // After parsing: every pragma has been seen, whatever its position.
    SiteTextCollector(Ctx).TraverseDecl(Ctx.getTranslationUnitDecl());
  }
};

class SamplerAction : public PluginASTAction {
protected:
  bool ParseArgs(const CompilerInstance &CI,
                 const std::vector<std::string> &Args) override {
    SamplerOptions Opts;
    for (const std::string &Arg : Args) {
      auto [Name, Value] = StringRef(Arg).split('=');
      if (llvm::Error E = Opts.set(Name, Value)) {
        DiagnosticsEngine &D = CI.getDiagnostics();
        D.Report(D.getCustomDiagID(DiagnosticsEngine::Error, "%0"))
            << llvm::toString(std::move(E));
        return false;
      }
    }
    Opts.FrontEnd = &TheFrontEndInfo;
    ActiveOptions = std::move(Opts);
    return true;
  }

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 StringRef) override {
    CI.getCodeGenOpts().PassBuilderCallbacks.push_back(
        [](llvm::PassBuilder &PB) {
          registerSamplerPass(PB, [] { return *ActiveOptions; });
        });
    return std::make_unique<SamplerASTConsumer>();
  }

  ActionType getActionType() override { return AddBeforeMainAction; }
};

/// `#pragma sampler weightless(f, g)` and `#pragma sampler skip(f)`.
class SamplerPragmaHandler : public PragmaHandler {
public:
  SamplerPragmaHandler() : PragmaHandler("sampler") {}
  void HandlePragma(Preprocessor &PP, PragmaIntroducer,
                    Token &Tok) override {
    auto Bad = [&](SourceLocation L) {
      DiagnosticsEngine &D = PP.getDiagnostics();
      D.Report(L, D.getCustomDiagID(
                      DiagnosticsEngine::Error,
                      "expected '#pragma sampler weightless(name, ...)' or "
                      "'#pragma sampler skip(name, ...)'"));
    };
    PP.Lex(Tok);
    if (Tok.isNot(tok::identifier))
      return Bad(Tok.getLocation());
    StringRef Kind = Tok.getIdentifierInfo()->getName();
    std::set<std::string> *Into = Kind == "weightless" ? &PragmaWeightless
                                  : Kind == "skip"     ? &PragmaSkip
                                                       : nullptr;
    if (!Into)
      return Bad(Tok.getLocation());
    PP.Lex(Tok);
    if (Tok.isNot(tok::l_paren))
      return Bad(Tok.getLocation());
    std::string Name;
    for (PP.Lex(Tok); Tok.isNot(tok::r_paren); PP.Lex(Tok)) {
      if (Tok.is(tok::eod) || Tok.is(tok::eof))
        return Bad(Tok.getLocation());
      if (Tok.is(tok::comma)) {
        if (!Name.empty())
          Into->insert(Name);
        Name.clear();
      } else if (Tok.is(tok::identifier) || Tok.is(tok::coloncolon)) {
        Name += PP.getSpelling(Tok);
      } else {
        return Bad(Tok.getLocation());
      }
    }
    if (!Name.empty())
      Into->insert(Name);
  }
};

} // namespace

/// The pass options for -fpass-plugin=SamplerPass.so: those of the plugin
/// action when -fplugin loaded this same library (so both entry points agree
/// and the pass keeps the AST's information), the defaults otherwise.
SamplerOptions sampler::getDefaultPassOptions() {
  if (ActiveOptions)
    return *ActiveOptions;
  return SamplerOptions();
}

static FrontendPluginRegistry::Add<SamplerAction>
    RegisterAction("sampler", "cooperative bug isolation instrumentation");
static PragmaHandlerRegistry::Add<SamplerPragmaHandler>
    RegisterPragma("sampler", "#pragma sampler weightless(...) / skip(...)");
