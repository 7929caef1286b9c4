#include "viz/window_app.h"

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <cfloat>
#include <chrono>
#include <cstdint>
#include <vector>

#if defined(__SANITIZE_ADDRESS__)
#define CHAINTWIN_LEAK_CHECK 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CHAINTWIN_LEAK_CHECK 1
#endif
#endif
#ifdef CHAINTWIN_LEAK_CHECK
#include <sanitizer/lsan_interface.h>
#endif

#include "viz/dashboard.h"
#include "viz/image_textures.h"
#include "viz/plot_textures.h"
#include "viz/png_capture.h"
#include "viz/state_palette.h"

namespace chaintwin::viz {
namespace {

void apply_style() {
  ImGui::StyleColorsDark();
  ImGuiStyle& style = ImGui::GetStyle();
  const Rgba bg = background_colour();
  style.Colors[ImGuiCol_WindowBg] = ImVec4(bg.r / 255.0f, bg.g / 255.0f, bg.b / 255.0f, 1.0f);
  style.WindowRounding = 0;
  style.FrameRounding = 3;
  style.CellPadding = ImVec2(5, 3);
}

// The GLFW session: initialised once per run_window, torn down on every path out.
struct GlfwSession {
  GLFWwindow* window = nullptr;
  bool imgui = false;
  ~GlfwSession() {
    if (imgui) {
      ImGui_ImplOpenGL3_Shutdown();
      ImGui_ImplGlfw_Shutdown();
      ImGui::DestroyContext();
    }
    if (window != nullptr) glfwDestroyWindow(window);
    check_leaks_while_the_driver_is_loaded();
    glfwTerminate();
  }

  // Under AddressSanitizer: glfwTerminate unloads the OpenGL driver (Mesa's, under Xvfb), and the
  // few blocks the driver keeps in its own globals would then be reported at exit as leaks of an
  // "<unknown module>" that no suppression can name. So the one leak check runs here, after every
  // object of ours is gone and while the driver is still mapped; LeakSanitizer does not run again
  // at exit. Without a sanitizer this does nothing.
  static void check_leaks_while_the_driver_is_loaded() {
#ifdef CHAINTWIN_LEAK_CHECK
    __lsan_do_leak_check();
#endif
  }
};

// An RGBA image (rows top-down) as a new OpenGL texture with the given filter; 0 when it cannot be
// made. The texture binding is left as it was.
GLuint upload_rgba(int width, int height, const uint8_t* rgba, GLint filter) {
  while (glGetError() != GL_NO_ERROR) {
  }  // an error left by someone else is not this upload's
  GLint previous = 0;
  glGetIntegerv(GL_TEXTURE_BINDING_2D, &previous);
  GLuint id = 0;
  glGenTextures(1, &id);
  glBindTexture(GL_TEXTURE_2D, id);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, filter);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, filter);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
  glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(previous));
  if (glGetError() != GL_NO_ERROR) {
    glDeleteTextures(1, &id);
    return 0;
  }
  return id;
}

// Deletes every texture of `ids` (0 = none made) and empties it.
void delete_textures(std::vector<GLuint>& ids) {
  for (GLuint& id : ids)
    if (id != 0) glDeleteTextures(1, &id);
  ids.clear();
}

// A plan's plots as OpenGL textures: each uploaded on first use and kept while the same PlanView is
// shown; all deleted when another view comes or the window closes (while its context is current).
class GlPlotTextures final : public PlotTextures {
 public:
  ~GlPlotTextures() override { release(); }

  ImTextureID texture(const std::shared_ptr<const PlanView>& view, size_t index) override {
    if (view != view_) {
      release();
      view_ = view;
      ids_.assign(view_ != nullptr ? view_->plots.size() : 0, 0);
    }
    if (view_ == nullptr || index >= ids_.size()) return nullptr;
    const PlanPlot& plot = view_->plots[index];
    if (plot.width <= 0 || plot.height <= 0 ||
        plot.rgba.size() != static_cast<size_t>(plot.width) * static_cast<size_t>(plot.height) * 4)
      return nullptr;
    if (ids_[index] == 0) ids_[index] = upload_rgba(plot.width, plot.height, plot.rgba.data(), GL_LINEAR);
    if (ids_[index] == 0) return nullptr;
    return reinterpret_cast<ImTextureID>(static_cast<intptr_t>(ids_[index]));
  }

 private:
  void release() {
    delete_textures(ids_);
    view_.reset();
  }

  std::shared_ptr<const PlanView> view_;
  std::vector<GLuint> ids_;
};

// Panels' own images as OpenGL textures (viz/image_textures.h): those of one owner, kept until another
// owner is asked for, then all deleted.
class GlImageTextures final : public ImageTextures {
 public:
  ~GlImageTextures() override { release(); }

  ImTextureID texture(uint64_t owner, size_t index, int width, int height, const uint8_t* rgba) override {
    if (owner != owner_) {
      release();
      owner_ = owner;
    }
    if (width <= 0 || height <= 0 || rgba == nullptr) return nullptr;
    GLint largest = 0;
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &largest);
    if (width > largest || height > largest) return nullptr;
    if (index >= ids_.size()) ids_.resize(index + 1, 0);
    if (ids_[index] == 0) ids_[index] = upload_rgba(width, height, rgba, GL_NEAREST);
    if (ids_[index] == 0) return nullptr;
    return reinterpret_cast<ImTextureID>(static_cast<intptr_t>(ids_[index]));
  }

 private:
  void release() { delete_textures(ids_); }

  uint64_t owner_ = 0;
  std::vector<GLuint> ids_;
};

}  // namespace

model::Status run_window(const SnapshotSource& source, CommandSink& commands, const WindowOptions& options) {
  if (glfwInit() == GLFW_FALSE)
    return model::err("cannot open a window: GLFW found no display (set DISPLAY, or run under xvfb-run -a)");
  GlfwSession session;
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_RESIZABLE, options.screenshot ? GLFW_FALSE : GLFW_TRUE);
  session.window = glfwCreateWindow(options.width, options.height, options.title.c_str(), nullptr, nullptr);
  if (session.window == nullptr) return model::err("cannot open a window: no OpenGL 3.3 core context on this display");
  glfwMakeContextCurrent(session.window);
  glfwSwapInterval(options.screenshot ? 0 : 1);
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // no imgui.ini left behind
  apply_style();
  ImGui_ImplGlfw_InitForOpenGL(session.window, true);
  ImGui_ImplOpenGL3_Init("#version 330");
  session.imgui = true;

  GlPlotTextures plot_textures;  // declared after the session: its textures go before the context
  GlImageTextures image_textures;
  UiState ui;
  ui.plot_textures = &plot_textures;
  ui.image_textures = &image_textures;
  if (options.panel) {
    ui.panel = *options.panel;
    ui.panel_forced = true;
  }
  ui.selected_queue = options.select_queue;
  ui.selected_node = options.select_node;
  ui.selected_workload = options.select_workload;
  ui.credits_scale = options.value_scale;
  const Rgba bg = background_colour();
  int drawn = 0;  // frames drawn with a snapshot: a screenshot waits for a few of them
  while (!glfwWindowShouldClose(session.window)) {
    glfwPollEvents();
    const auto frame_start = std::chrono::steady_clock::now();
    const std::shared_ptr<const Snapshot> snapshot = source.latest();
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    // A screenshot is of the run, not of where the pointer happens to be: no hover, no tooltip.
    if (options.screenshot) ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
    ImGui::NewFrame();
    int fb_w = 0, fb_h = 0;
    glfwGetFramebufferSize(session.window, &fb_w, &fb_h);
    if (options.screenshot && options.panel) {
      ui.panel = *options.panel;  // a tab bar's first frame opens its first tab, whatever is forced
      ui.panel_forced = true;
    }
    draw_dashboard(snapshot.get(), ui, commands, ImGui::GetIO().DisplaySize.x, ImGui::GetIO().DisplaySize.y);
    ImGui::Render();
    glViewport(0, 0, fb_w, fb_h);
    glClearColor(bg.r / 255.0f, bg.g / 255.0f, bg.b / 255.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    if (options.screenshot && options.frame_ms != nullptr && drawn >= 4) {
      glFinish();
      options.frame_ms->push_back(
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - frame_start).count());
    }
    // A screenshot of a preselected Workload waits for the snapshot that explains it.
    const bool explained = options.select_workload.empty() ||
                           (snapshot != nullptr && (snapshot->explanation || !snapshot->explanation_note.empty()));
    if (snapshot != nullptr && explained) ++drawn;
    // A screenshot waits for its first snapshot at most a minute (a live cluster that never lists).
    if (options.screenshot && drawn == 0 && glfwGetTime() > 60.0)
      return model::err("no snapshot to draw after 60 s; nothing written");
    if (options.screenshot && drawn >= options.screenshot_frames) {
      glFinish();
      return capture_png(*options.screenshot, fb_w, fb_h);
    }
    glfwSwapBuffers(session.window);
  }
  return model::Ok{};
}

}  // namespace chaintwin::viz
